import type { Context, EventBridgeEvent } from 'aws-lambda';
import type { z } from 'zod/mini';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric, flushMetrics } from '#lambdas/runtime/metrics.ts';

/** What an EventBridge rule hands its target: a scheduled rule's `detail` is `{}`. */
export type BusEvent = Pick<EventBridgeEvent<string, unknown>, 'id' | 'detail'> &
  Partial<Pick<EventBridgeEvent<string, unknown>, 'detail-type' | 'source' | 'time'>>;

/**
 * The shell of every EventBridge target, as `httpHandler` is for routes: the invocation's log keys
 * (Powertools' Lambda context: `cold_start`, `function_request_id`; the bus event's id), the
 * detail parsed with its contract, an invalid detail logged and dropped (retrying cannot make it
 * valid: `InvalidEventDropped` counts it), metrics flushed and keys cleared however it ends.
 * A thrown error fails the invocation, so Lambda retries it, then the rule's dead-letter queue
 * has it: `fn` throws only what a retry can fix.
 */
export function eventHandler<Detail>(
  options: {
    /** The detail-type, for the log line of a dropped event. */
    name: string;
    /** The detail's contract; a scheduled target that reads no detail leaves it out. */
    detail?: z.ZodMiniType<Detail>;
  },
  fn: (detail: Detail, event: BusEvent, context: Context) => Promise<void>,
): (event: BusEvent, context: Context) => Promise<void> {
  return async (event, context) => {
    logger.addContext(context);
    logger.appendKeys({ busEventId: event.id });
    try {
      let detail = event.detail as Detail;
      if (options.detail) {
        const parsed = options.detail.safeParse(event.detail);
        if (!parsed.success) {
          logger.error(`invalid ${options.name} event dropped`, { issues: parsed.error?.issues });
          countMetric('InvalidEventDropped');
          return;
        }
        detail = parsed.data;
      }
      await fn(detail, event, context);
    } finally {
      flushMetrics();
      logger.removeKeys(['busEventId']);
    }
  };
}
