import { signatureHeader } from '#local/persona/webhooks.ts';
import type { StackInfo } from '#local/stack.ts';
import { identityVerificationConsent, personaEvent } from '#scripts/lib/persona-events.ts';
import { createTestUser, type TestUser } from './tokens.ts';

export { identityVerificationConsent, personaEvent };

// Helpers of the stack tests that send Persona webhooks: users enrolled as the webhook path needs
// them (consent + an inquiry), signed inquiry events, and delivery through the web origin as
// Persona posts through CloudFront.

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

/** Posts a signed webhook through the web origin; answers the HTTP status and body. */
export const sendWebhook = (stack: StackInfo, body: string) =>
  webApi(stack)('/api/webhooks/persona', {
    method: 'POST',
    body,
    headers: { 'persona-signature': signatureHeader(stack.persona.webhookSecret, body) },
  }).then(async (response) => ({ status: response.status, body: await response.text() }));

/** Waits until every event on the local bus has been delivered (or dead-lettered). */
export async function settleEvents(stack: StackInfo): Promise<void> {
  const response = await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`settling the local bus failed: ${response.status}`);
}

/** Fisher-Yates with the given random source (seeded in the load suites, so a run can be replayed). */
export function shuffle<T>(items: T[], random: () => number = Math.random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
