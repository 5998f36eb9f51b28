import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { asyncInvocation, type EventRuleDef } from '#lambdas/event-rules.ts';
import { createEventBus, type EventTarget, lambdaThrottleRetryDelayMs } from '#local/gateway/eventbridge.ts';

// The local bus against AWS's delivery of a rule to a Lambda function (ADR 0062): EventBridge's
// retry policy covers the Invoke call; Lambda's asynchronous invocation then throttles at the
// function's reserved concurrency (retried with backoff, not counted as an attempt, until the
// event's maximum age) and retries a function error twice.

const rule = (overrides: Partial<EventRuleDef> = {}): EventRuleDef =>
  ({
    id: 'Target',
    description: 'test',
    pattern: { source: ['test'], 'detail-type': ['Thing'] },
    handler: 'target',
    grants: [],
    retry: { maximumRetryAttempts: 8, maximumEventAgeSeconds: 86_400 },
    ...overrides,
  }) as EventRuleDef;

async function put(bus: ReturnType<typeof createEventBus>, count: number): Promise<void> {
  const entries = Array.from({ length: count }, (_, n) => ({
    EventBusName: 'bus',
    Source: 'test',
    DetailType: 'Thing',
    Detail: JSON.stringify({ n }),
  }));
  for (let i = 0; i < entries.length; i += 10) {
    const res = { writeHead: () => res, end: () => res } as unknown as ServerResponse;
    await bus.handle(
      { headers: { 'x-amz-target': 'AWSEvents.PutEvents' } } as unknown as IncomingMessage,
      res,
      Buffer.from(JSON.stringify({ Entries: entries.slice(i, i + 10) })),
    );
  }
}

function busWith(
  def: EventRuleDef,
  target: EventTarget,
  throttleRetryDelayMs: (throttle: number) => number = () => 5,
) {
  return createEventBus({
    busName: 'bus',
    region: 'eu-central-1',
    rules: [def],
    loadTarget: async () => target,
    retryDelayMs: () => 1,
    throttleRetryDelayMs,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the local bus delivering to a Lambda target', () => {
  it('runs at most the reserved concurrency at once; a throttle is not an attempt', async () => {
    let running = 0;
    let peak = 0;
    const tries = new Map<number, number>();
    const bus = busWith(rule({ reservedConcurrency: 2 }), async (event) => {
      running += 1;
      peak = Math.max(peak, running);
      await sleep(10);
      running -= 1;
      const n = Number(event.detail.n);
      tries.set(n, (tries.get(n) ?? 0) + 1);
      // Each event fails once: with throttles counted as attempts, some would be dead-lettered.
      if (tries.get(n) === 1) throw new Error('once');
    });
    await put(bus, 12);
    await bus.settled();
    expect(peak).toBe(2);
    expect(bus.throttles()).toBeGreaterThan(12);
    expect([...tries.values()]).toEqual(Array.from({ length: 12 }, () => 2));
    expect(bus.deadLetters()).toEqual([]);
  });

  it("retries a function error as Lambda does (twice), whatever the rule's EventBridge retries", async () => {
    let calls = 0;
    const bus = busWith(rule(), async () => {
      calls += 1;
      throw new Error('broken');
    });
    await put(bus, 1);
    await bus.settled();
    expect(calls).toBe(1 + asyncInvocation(rule()).retryAttempts);
    expect(calls).toBe(3);
    expect(bus.deadLetters()).toMatchObject([{ ruleId: 'Target', attempts: 3, error: 'broken' }]);
  });

  it("dead-letters an event still throttled at Lambda's maximum event age", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const bus = busWith(
      rule({ reservedConcurrency: 1 }),
      async () => {
        calls += 1;
        await held;
      },
      // The next try would come after the event's six hours.
      () => asyncInvocation(rule()).maxEventAgeSeconds * 1000 + 1,
    );
    await put(bus, 2);
    await sleep(20);
    release();
    await bus.settled();
    expect(calls).toBe(1);
    expect(bus.deadLetters()).toMatchObject([{ error: 'Event expired while throttled (maximum event age)' }]);
  });

  it('dead-letters what waits when it stops, so the shutdown does not wait for minutes of backoff', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const bus = busWith(rule({ reservedConcurrency: 1 }), () => held, lambdaThrottleRetryDelayMs);
    await put(bus, 3);
    await sleep(20);
    bus.stop();
    release();
    const started = Date.now();
    await bus.settled();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(bus.deadLetters()).toHaveLength(2);
    expect(bus.deadLetters()[0]?.error).toMatch(/stopped while the event waited/);
  });

  it('backs a throttled event off as Lambda does: 1 s doubling to 5 minutes', () => {
    expect([1, 2, 3, 4, 9, 10, 20].map(lambdaThrottleRetryDelayMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 256_000, 300_000, 300_000,
    ]);
  });
});
