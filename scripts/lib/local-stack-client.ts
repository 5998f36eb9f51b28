import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { signatureHeader } from '#local/persona/webhooks.ts';
import type { StackInfo } from '#local/stack.ts';
import { createTestUser, type TestUser } from './local-idp.ts';
import { identityVerificationConsent } from './persona-events.ts';

// A client of the local stack, as a person, Persona and CloudFront reach it: calls through the web
// origin, signed Persona webhooks, tokens from the identity provider, the local SES mailbox and a
// subscriber to the realtime API. The tooling (scripts/bench) and the stack tests share it; tooling
// never imports from tests/, so the tests' helpers re-export what they use from here.

export { passwordToken } from './local-idp.ts';
export { personaEvent } from './persona-events.ts';
export { identityVerificationConsent };

/** A call through the web origin (CloudFront locally): the gateway's own port refuses calls. */
export const webApi =
  (stack: StackInfo) =>
  (
    path: string,
    /** A string body is sent as it is; anything else as JSON. */
    init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${stack.web}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...init.headers,
      },
      ...(init.body === undefined
        ? {}
        : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    });

/** Posts a signed webhook through the web origin, as Persona does. */
export const postWebhook = (stack: StackInfo, body: string) =>
  webApi(stack)('/api/webhooks/persona', {
    method: 'POST',
    body,
    headers: { 'persona-signature': signatureHeader(stack.persona.webhookSecret, body) },
  });

/** Posts a signed webhook through the web origin; answers the HTTP status and body. */
export const sendWebhook = (stack: StackInfo, body: string) =>
  postWebhook(stack, body).then(async (response) => ({
    status: response.status,
    body: await response.text(),
  }));

export type EnrolledUser = TestUser & { inquiryId: string; sessionToken: string };

/** A new user with identity-verification consent and a Persona inquiry started through the API. */
export async function enrolledUser(stack: StackInfo): Promise<EnrolledUser> {
  const api = webApi(stack);
  const user = await createTestUser(stack);
  const consent = await api('/api/consents', {
    method: 'POST',
    token: user.token,
    body: JSON.stringify(identityVerificationConsent),
  });
  if (consent.status !== 201) throw new Error(`consent failed: ${consent.status}`);
  const inquiry = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
  if (inquiry.status !== 200) throw new Error(`starting an inquiry failed: ${inquiry.status}`);
  const { inquiryId, sessionToken } = (await inquiry.json()) as { inquiryId: string; sessionToken: string };
  return { ...user, inquiryId, sessionToken };
}

/** `count` enrolled users, `parallel` at a time (the setup is not what is under test). */
export async function enrolledUsers(stack: StackInfo, count: number, parallel = 3): Promise<EnrolledUser[]> {
  const users: EnrolledUser[] = [];
  while (users.length < count) {
    const batch = Math.min(parallel, count - users.length);
    users.push(...(await Promise.all(Array.from({ length: batch }, () => enrolledUser(stack)))));
  }
  return users;
}

/** Waits until every event on the local bus has been delivered (or dead-lettered). */
export async function settleEvents(stack: StackInfo): Promise<void> {
  const response = await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`settling the local bus failed: ${response.status}`);
  await response.arrayBuffer();
}

/** Emails in the local SES mailbox, newest last. */
export async function mailbox(stack: StackInfo): Promise<
  {
    messageId: string;
    from: string;
    destination: { to: string[] };
    subject: string;
    body: { text?: string; html?: string };
    at: number;
  }[]
> {
  const response = await fetch(`${stack.ses.url}/store`);
  const store = (await response.json()) as { emails: never[] };
  return store.emails;
}

export interface Subscriber {
  /** Every message received, in order. */
  messages: Record<string, unknown>[];
  /** When each message arrived (`performance.now()`), index for index with `messages`. */
  receivedAt: number[];
  /** The `subscribe_success` or `subscribe_error` answer. */
  answer: Record<string, unknown>;
  /** The pushed events, parsed. */
  events(): unknown[];
  /** When the last pushed event arrived (`performance.now()`), if any. */
  readonly lastEventAt: number | undefined;
  /**
   * Resolves with the arrival time (`performance.now()`) of the first pushed event from index
   * `from` on (counting pushed events only) that `matches`; undefined after `timeoutMs`.
   */
  nextEvent(
    from: number,
    matches: (event: unknown) => boolean,
    timeoutMs: number,
  ): Promise<number | undefined>;
  close(): void;
}

/**
 * A subscriber to the local realtime API (the AppSync Events emulator), speaking the protocol a
 * browser speaks: the access token in the `header-` subprotocol, connection_init, subscribe.
 */
export async function subscribe(stack: StackInfo, token: string, channel: string): Promise<Subscriber> {
  const host = new URL(stack.realtime.httpDomain).host;
  const header = Buffer.from(JSON.stringify({ host, Authorization: token })).toString('base64url');
  const ws = new WebSocket(`${stack.realtime.realtimeDomain}/event/realtime`, [
    'aws-appsync-event-ws',
    `header-${header}`,
  ]);
  const messages: Record<string, unknown>[] = [];
  const receivedAt: number[] = [];
  const listeners = new Set<() => void>();
  ws.on('message', (data) => {
    receivedAt.push(performance.now());
    messages.push(JSON.parse(data.toString()));
    for (const listener of listeners) listener();
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
  /** The pushed events with their arrival times. */
  const pushed = () =>
    messages.flatMap((message, index) =>
      message.type === 'data'
        ? [{ event: JSON.parse(String(message.event)) as unknown, at: receivedAt[index] ?? 0 }]
        : [],
    );
  return {
    messages,
    receivedAt,
    answer,
    events: () => pushed().map((entry) => entry.event),
    get lastEventAt() {
      return pushed().at(-1)?.at;
    },
    nextEvent: (from, matches, timeoutMs) =>
      new Promise((resolve) => {
        const check = () => {
          const found = pushed()
            .slice(from)
            .find((entry) => matches(entry.event));
          if (!found) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found.at);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          resolve(undefined);
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    close: () => ws.close(),
  };
}
