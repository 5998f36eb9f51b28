import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { lambdaContext } from '#tests/fixtures/events/http-api-event.ts';

// The shell of every EventBridge target: what it logs, drops, passes on and flushes.

const detail = z.object({ userId: z.string() });
let lines: Record<string, unknown>[];
let eventHandler: typeof import('#lambdas/runtime/event-handler.ts').eventHandler;
let metrics: typeof import('#lambdas/runtime/metrics.ts').metrics;

beforeEach(async () => {
  // In dev mode Powertools writes through the global console, which the test can observe.
  vi.stubEnv('POWERTOOLS_DEV', 'true');
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
  vi.resetModules();
  ({ eventHandler } = await import('#lambdas/runtime/event-handler.ts'));
  ({ metrics } = await import('#lambdas/runtime/metrics.ts'));
  lines = [];
  for (const level of ['info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => {
      lines.push(JSON.parse(String(line)) as Record<string, unknown>);
    });
  }
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const busEvent = (body: unknown) => ({ id: 'bus-1', 'detail-type': 'Thing', detail: body });

describe('eventHandler', () => {
  it('hands the parsed detail to the target, with the Lambda context and the bus event id in its logs', async () => {
    const seen: unknown[] = [];
    const handler = eventHandler({ name: 'Thing', detail }, async (parsed, event) => {
      seen.push(parsed, event.id);
      const { logger } = await import('#lambdas/runtime/logger.ts');
      logger.info('worked');
    });
    await handler(busEvent({ userId: 'u1', extra: 'dropped by the contract' }), lambdaContext);
    expect(seen).toEqual([{ userId: 'u1' }, 'bus-1']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      message: 'worked',
      busEventId: 'bus-1',
      cold_start: expect.any(Boolean),
      function_request_id: lambdaContext.awsRequestId,
      function_name: lambdaContext.functionName,
    });
  });

  it('logs and drops an invalid detail without calling the target or throwing, and counts it', async () => {
    const target = vi.fn(async () => {});
    const flush = vi.spyOn(metrics, 'publishStoredMetrics');
    const handler = eventHandler({ name: 'Thing', detail }, target);
    await expect(handler(busEvent({ userId: 7 }), lambdaContext)).resolves.toBeUndefined();
    expect(target).not.toHaveBeenCalled();
    expect(lines).toEqual([
      expect.objectContaining({ level: 'ERROR', message: 'invalid Thing event dropped' }),
    ]);
    expect(flush).toHaveBeenCalledOnce();
  });

  it('lets a failure through (so the invocation is retried), flushes metrics and clears the event id', async () => {
    const flush = vi.spyOn(metrics, 'publishStoredMetrics');
    const { countMetric } = await import('#lambdas/runtime/metrics.ts');
    const handler = eventHandler({ name: 'Thing', detail }, async () => {
      countMetric('Tried');
      throw new Error('table unavailable');
    });
    await expect(handler(busEvent({ userId: 'u1' }), lambdaContext)).rejects.toThrow('table unavailable');
    expect(flush).toHaveBeenCalledOnce();
    const { logger } = await import('#lambdas/runtime/logger.ts');
    logger.info('after');
    expect(lines.at(-1)).not.toHaveProperty('busEventId');
  });

  it('passes a scheduled event through untouched when the target reads no detail', async () => {
    const target = vi.fn(async () => {});
    await eventHandler({ name: 'Scheduled Event' }, target)(busEvent({}), lambdaContext);
    expect(target).toHaveBeenCalledWith({}, expect.objectContaining({ id: 'bus-1' }), lambdaContext);
  });
});
