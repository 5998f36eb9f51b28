import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { signatureHeader } from '#local/persona/webhooks.ts';
import type { StackInfo } from '#local/stack.ts';

// A client of the local stack, as a person, Persona and CloudFront reach it: calls through the web
// origin, signed Persona webhooks, tokens from the identity provider, the local SES mailbox and a
// subscriber to the realtime API. The tooling (scripts/bench) and the stack tests share it; tooling
// never imports from tests/, so the tests' helpers re-export what they use from here.

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

/** The body of POST /api/consents that gives identity-verification consent, every statement ticked. */
export const identityVerificationConsent = {
  identity_verification_consent: true,
  biometric_data_consent: true,
  privacy_policy_consent: true,
  consent_type: 'identity_verification',
} as const;

/** A Persona inquiry event (`inquiry.approved`, ...) about the user's inquiry, as its webhook body. */
export function personaEvent(name: string, user: { userId: string; inquiryId: string }, createdAt: Date) {
  return JSON.stringify({
    data: {
      type: 'event',
      id: `evt_${randomBytes(12).toString('hex')}`,
      attributes: {
        name,
        'created-at': createdAt.toISOString(),
        payload: {
          data: {
            type: 'inquiry',
            id: user.inquiryId,
            attributes: { status: name.split('.')[1], 'reference-id': user.userId },
          },
          included: [],
        },
      },
    },
  });
}

/** Posts a signed webhook through the web origin, as Persona does. */
export const postWebhook = (stack: StackInfo, body: string) =>
  webApi(stack)('/api/webhooks/persona', {
    method: 'POST',
    body,
    headers: { 'persona-signature': signatureHeader(stack.persona.webhookSecret, body) },
  });

/** Waits until every event on the local bus has been delivered (or dead-lettered). */
export async function settleEvents(stack: StackInfo): Promise<void> {
  const response = await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`settling the local bus failed: ${response.status}`);
  await response.arrayBuffer();
}

/** An access token for the API from the password grant (the post-login Action runs, as at a login). */
export async function passwordToken(stack: StackInfo, email: string, password: string): Promise<string> {
  const response = await fetch(`${stack.idp.issuer}oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      username: email,
      password,
      audience: stack.idp.audience,
      scope: 'openid profile email',
      client_id: stack.idp.testClientId,
      client_secret: stack.idp.testClientSecret,
    }),
  });
  if (!response.ok)
    throw new Error(`password grant for ${email} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
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
