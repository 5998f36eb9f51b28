import type { IncomingMessage, ServerResponse } from 'node:http';
import { type createFaultKnob, handleFaultControl } from '#local/faults.ts';
import type { DynamoDbCallLog } from './dynamodb-calls.ts';
import type { createEventBus } from './eventbridge.ts';

/**
 * Local-only controls for tests and developers (never part of the product's API):
 * `GET /__local/dead-letters`, `POST /__local/events/settle`, `POST /__local/events/hold|release`
 * (target invocations wait while held: the bench's webhook acknowledgement), `POST /__local/schedules/{ruleId}`,
 * `POST /__local/dead-letters/redrive`, `GET /__local/events` (what the bus accepted),
 * `GET /__local/events/stats` (accepted, deliveries pending, throttles, dead letters: ADR 0062),
 * `GET|POST|DELETE /__local/faults` (the EventBridge and SES fault knobs, ADR 0035),
 * `POST|GET|DELETE /__local/dynamodb/calls` (start counting each invocation's DynamoDB calls, list
 * them, stop),
 * `GET /__local/noop` (answers at once: the bench's reference for the gateway's overhead),
 * `GET /__local/noop-route` (an empty Lambda handler behind the whole route emulation: the bench
 * holds health against it; served by the route dispatch), `GET /__local/cpu` (this process's
 * `process.cpuUsage()`: the bench's CPU per request), and
 * `POST /__local/{name}` for each of `GatewayOptions.controls`.
 */
export const localControlPath = '/__local/';

/**
 * While held, target invocations wait (the bus keeps accepting): the bench measures an answer
 * without this process also running the targets, which in AWS are other functions.
 */
export function createEventHold() {
  let held: Promise<void> = Promise.resolve();
  let release: (() => void) | undefined;
  return {
    /** Resolves at once, or once the hold is released. */
    passed: () => held,
    hold() {
      if (!release) held = new Promise((resolve) => (release = resolve));
    },
    release() {
      release?.();
      release = undefined;
    },
  };
}

export interface ControlDeps {
  bus: ReturnType<typeof createEventBus>;
  hold: ReturnType<typeof createEventHold>;
  faults: Record<string, ReturnType<typeof createFaultKnob>>;
  dynamoDbCallLog?: DynamoDbCallLog | undefined;
  /** The stack's own knobs (`GatewayOptions.controls`). */
  controls?: Record<string, () => Promise<unknown>> | undefined;
}

/** Answers a request under `localControlPath`. */
export function createControls({ bus, hold, faults, dynamoDbCallLog: calls, controls }: ControlDeps) {
  return async (req: IncomingMessage, pathname: string, res: ServerResponse, body: Buffer) => {
    const method = req.method ?? 'GET';
    if (await handleFaultControl(req, res, pathname, faults, body)) return;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (method === 'GET' && pathname === `${localControlPath}dead-letters`)
      return json(200, bus.deadLetters());
    if (method === 'GET' && pathname === `${localControlPath}events`) return json(200, bus.accepted());
    // The load run's view of the backlog: deliveries under way and throttles (ADR 0062).
    if (method === 'GET' && pathname === `${localControlPath}events/stats`)
      return json(200, {
        accepted: bus.accepted().length,
        pending: bus.pending(),
        throttles: bus.throttles(),
        deadLetters: bus.deadLetters().length,
      });
    // The benchmark's reference for the gateway's overhead: this server's cheapest answer.
    if (method === 'GET' && pathname === `${localControlPath}noop`) return json(200, {});
    // This process's CPU so far (every thread), µs: the bench reads it around each load (ADR 0063).
    if (method === 'GET' && pathname === `${localControlPath}cpu`) return json(200, process.cpuUsage());
    if (calls && pathname === `${localControlPath}dynamodb/calls`) {
      if (method === 'GET') return json(200, calls.list());
      if (method === 'POST') {
        calls.start();
        return json(200, { counting: true });
      }
      if (method === 'DELETE') {
        calls.stop();
        return json(200, { counting: false });
      }
    }
    if (method === 'POST' && pathname === `${localControlPath}dead-letters/redrive`) {
      await bus.settled();
      const result = await bus.redrive();
      await bus.settled();
      return json(200, result);
    }
    if (method === 'POST' && pathname === `${localControlPath}events/hold`) {
      hold.hold();
      return json(200, { held: true });
    }
    if (method === 'POST' && pathname === `${localControlPath}events/release`) {
      hold.release();
      return json(200, { held: false });
    }
    if (method === 'POST' && pathname === `${localControlPath}events/settle`) {
      await bus.settled();
      return json(200, { settled: true });
    }
    const name = pathname.slice(localControlPath.length);
    const action = controls && Object.hasOwn(controls, name) ? controls[name] : undefined;
    if (method === 'POST' && action) {
      try {
        return json(200, (await action()) ?? { done: true });
      } catch (error) {
        return json(500, { message: String(error) });
      }
    }
    const schedule = /^\/__local\/schedules\/(\w+)$/.exec(pathname);
    if (method === 'POST' && schedule?.[1]) {
      // An optional JSON body becomes the scheduled event's detail (a run's parameters, as an
      // operator's `aws lambda invoke` payload would carry them).
      let detail: Record<string, unknown> = {};
      try {
        if (body.length > 0) detail = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) throw new TypeError();
      } catch {
        return json(400, { message: 'The body must be a JSON object (the scheduled event detail)' });
      }
      try {
        await bus.triggerSchedule(schedule[1], detail);
        return json(200, { triggered: schedule[1] });
      } catch (error) {
        return json(404, { message: String(error) });
      }
    }
    return json(404, { message: 'Not Found' });
  };
}
