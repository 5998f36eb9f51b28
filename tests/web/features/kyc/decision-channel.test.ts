// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { openDecisionChannel, type Timers } from '#web/features/kyc/lib/decision-channel.ts';
import { FakeSocket } from './fake-realtime.ts';

// The push channel's client against a fake AppSync Events server, on an injected clock: what it
// sends, what it hands on, and when it gives a link up and tries again (1, 2, 5, then every 10 s).

/** A clock the test moves: timers fire in order when `advance` passes them. */
function manualClock() {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      next += 1;
      pending.set(next, { at: now + ms, fn });
      return next;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  async function advance(ms: number) {
    const until = now + ms;
    for (;;) {
      const due = [...pending.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].fn();
      await flush();
    }
    now = until;
    await flush();
  }
  return { timers, advance };
}
const flush = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

function open(clock = manualClock()) {
  FakeSocket.reset();
  const pushes: unknown[] = [];
  const states: boolean[] = [];
  let tokens = 0;
  const close = openDecisionChannel({
    httpDomain: 'http://localhost:4030',
    realtimeDomain: 'ws://localhost:4030',
    channel: '/kyc-decisions/auth0Q7Cabc',
    token: async () => `token-${++tokens}`,
    onPush: (event) => pushes.push(event),
    onState: (up) => states.push(up),
    timers: clock.timers,
    WebSocket: FakeSocket as unknown as new (url: string, protocols: string[]) => WebSocket,
  });
  return { clock, pushes, states, close };
}

beforeEach(() => FakeSocket.reset());

describe('the decision channel client', () => {
  it('connects with the token and host in the header subprotocol, then init, subscribe, and reports up', async () => {
    const { states } = open();
    await flush();
    const socket = FakeSocket.last;
    expect(socket.url).toBe('ws://localhost:4030/event/realtime');
    expect(socket.protocols[0]).toBe('aws-appsync-event-ws');
    expect(socket.header()).toEqual({ host: 'localhost:4030', Authorization: 'token-1' });
    socket.open();
    expect(socket.sent).toEqual([{ type: 'connection_init' }]);
    socket.receive({ type: 'connection_ack', connectionTimeoutMs: 300_000 });
    expect(socket.subscribeMessage()).toMatchObject({
      type: 'subscribe',
      channel: '/kyc-decisions/auth0Q7Cabc',
      authorization: { host: 'localhost:4030', Authorization: 'token-1' },
    });
    expect(states).toEqual([]);
    socket.receive({ type: 'subscribe_success', id: socket.subscribeMessage()?.id });
    expect(states).toEqual([true]);
  });

  it('hands each data event of its own subscription to onPush, parsed; ignores other ids and non-JSON', async () => {
    const { pushes } = open();
    await flush();
    const socket = FakeSocket.last;
    socket.accept();
    socket.push({ status: 'approved', occurredAt: 't1' });
    socket.receive({ type: 'data', id: 'someone-else', event: '{"status":"rejected"}' });
    socket.receive({ type: 'data', id: socket.subscribeMessage()?.id, event: 'not json' });
    expect(pushes).toEqual([{ status: 'approved', occurredAt: 't1' }]);
  });

  it('gives the link up when no keep-alive comes within connectionTimeoutMs, and reconnects after 1 s', async () => {
    const { clock, states } = open();
    await flush();
    FakeSocket.last.accept(40_000);
    await clock.advance(30_000);
    FakeSocket.last.receive({ type: 'ka' });
    await clock.advance(39_999);
    expect(states).toEqual([true]);
    expect(FakeSocket.instances).toHaveLength(1);

    await clock.advance(1);
    expect(states).toEqual([true, false]);
    expect(FakeSocket.instances[0]?.closed).toBe(true);
    await clock.advance(999);
    expect(FakeSocket.instances).toHaveLength(1);
    await clock.advance(1);
    expect(FakeSocket.instances).toHaveLength(2);
    // A fresh token for the new connection.
    expect(FakeSocket.last.header().Authorization).toBe('token-2');
  });

  it('retries a refused or failing connection after 1, 2, 5, then every 10 s, and starts over once subscribed', async () => {
    const { clock, states } = open();
    await flush();
    const gaps: number[] = [];
    for (const refusal of ['close', 'subscribe_error', 'timeout', 'close', 'close'] as const) {
      const socket = FakeSocket.last;
      if (refusal === 'close') socket.drop();
      if (refusal === 'subscribe_error') {
        socket.open();
        socket.receive({ type: 'connection_ack', connectionTimeoutMs: 300_000 });
        socket.receive({ type: 'subscribe_error', id: socket.subscribeMessage()?.id, errors: [] });
      }
      // No connection_ack: given up after the 10 s timeout.
      if (refusal === 'timeout') await clock.advance(10_000);
      const before = FakeSocket.instances.length;
      let waited = 0;
      while (FakeSocket.instances.length === before) {
        await clock.advance(500);
        waited += 500;
      }
      gaps.push(waited);
    }
    expect(gaps).toEqual([1000, 2000, 5000, 10_000, 10_000]);
    expect(states).toEqual([]);

    FakeSocket.last.accept();
    FakeSocket.last.drop();
    await clock.advance(1000);
    expect(states).toEqual([true, false]);
    expect(FakeSocket.instances).toHaveLength(7);
  });

  it('on close: unsubscribes, closes the socket and never reconnects', async () => {
    const { clock, close } = open();
    await flush();
    const socket = FakeSocket.last;
    socket.accept();
    close();
    expect(socket.sent.at(-1)).toEqual({ type: 'unsubscribe', id: socket.subscribeMessage()?.id });
    expect(socket.closed).toBe(true);
    await clock.advance(120_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it("uses the platform's timers as plain functions when none are injected, as a browser requires", async () => {
    // Chromium throws "Illegal invocation" for `clearTimeout` called as a method of another
    // object; jsdom and Node do not, so the stand-ins here refuse such a call the same way.
    const platform = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };
    const strict = <F extends (...args: never[]) => unknown>(fn: F) =>
      function (this: unknown, ...args: Parameters<F>) {
        if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
        return fn(...args);
      };
    globalThis.setTimeout = strict(platform.setTimeout) as unknown as typeof setTimeout;
    globalThis.clearTimeout = strict(platform.clearTimeout) as typeof clearTimeout;
    try {
      const states: boolean[] = [];
      const close = openDecisionChannel({
        httpDomain: 'http://localhost:4030',
        realtimeDomain: 'ws://localhost:4030',
        channel: '/kyc-decisions/auth0Q7Cabc',
        token: async () => 'token',
        onPush: () => undefined,
        onState: (up) => states.push(up),
        WebSocket: FakeSocket as unknown as new (url: string, protocols: string[]) => WebSocket,
      });
      await flush();
      FakeSocket.last.accept();
      expect(states).toEqual([true]);
      expect(() => close()).not.toThrow();
      expect(FakeSocket.last.closed).toBe(true);
    } finally {
      globalThis.setTimeout = platform.setTimeout;
      globalThis.clearTimeout = platform.clearTimeout;
    }
  });
});
