import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { StackInfo } from '#local/stack.ts';

// A subscriber to the local realtime API (the AppSync Events emulator), speaking the protocol a
// browser speaks: the access token in the `header-` subprotocol, connection_init, subscribe.

export interface Subscriber {
  /** Every message received, in order. */
  messages: Record<string, unknown>[];
  /** The `subscribe_success` or `subscribe_error` answer. */
  answer: Record<string, unknown>;
  /** The pushed events, parsed. */
  events(): unknown[];
  /** When the last pushed event arrived (`performance.now()`), if any. */
  readonly lastEventAt: number | undefined;
  close(): void;
}

export async function subscribe(stack: StackInfo, token: string, channel: string): Promise<Subscriber> {
  const host = new URL(stack.realtime.httpDomain).host;
  const header = Buffer.from(JSON.stringify({ host, Authorization: token })).toString('base64url');
  const ws = new WebSocket(`${stack.realtime.realtimeDomain}/event/realtime`, [
    'aws-appsync-event-ws',
    `header-${header}`,
  ]);
  const messages: Record<string, unknown>[] = [];
  let lastEventAt: number | undefined;
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    if (message.type === 'data') lastEventAt = performance.now();
    messages.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  // A link that fails later ends the subscription, not the process.
  ws.on('error', () => {});
  ws.send(JSON.stringify({ type: 'connection_init' }));
  ws.send(
    JSON.stringify({ type: 'subscribe', id: 'sub', channel, authorization: { host, Authorization: token } }),
  );
  const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const found = messages.find((message) => message.id === 'sub');
      if (found) return resolve(found);
      if (Date.now() - started > 10_000) return reject(new Error('no answer to subscribe'));
      setTimeout(check, 10);
    };
    check();
  });
  return {
    messages,
    answer,
    events: () =>
      messages
        .filter((message) => message.type === 'data')
        .map((message) => JSON.parse(String(message.event))),
    get lastEventAt() {
      return lastEventAt;
    },
    close: () => ws.close(),
  };
}
