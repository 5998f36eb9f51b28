import { randomBytes } from 'node:crypto';
import type { StackInfo } from '#local/stack.ts';

// Calls to the local identity provider that tooling and tests both make: tokens obtained the way
// scripts do against Auth0, Management API calls that wait out the tenant's quota, and fresh users.
// (tests/helpers/tokens.ts and tests/helpers/management-api.ts re-export these.)

// The tests' and tools' own Management API calls spend the tenant's quota like everyone else's
// (ADR 0061): the local identity provider counts them in the one bucket the functions share, as
// Auth0 would. Rather than being exempt, a call answered 429 waits until `x-ratelimit-reset`
// (epoch seconds) and is sent again.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long a 429 asks to wait, in ms, from `x-ratelimit-reset`; a short pause when it names none. */
export function waitForReset(response: Response, nowMs: number = Date.now()): number {
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  if (!Number.isFinite(reset) || reset <= 0) return 250;
  // At least a little: a reset in the current second (the fault knob's default) is not a busy loop.
  return Math.max(50, reset * 1000 - nowMs);
}

/**
 * `fetch` for `/api/v2/*`: a 429 is waited out and the call sent again, for up to `maxWaitMs` in
 * all; past that the 429 is answered as it came (the caller fails on it, rather than hanging).
 * A body is sent again as it is: give a string, not a stream.
 */
export async function managementFetch(
  url: string,
  init: RequestInit = {},
  { maxWaitMs = 20_000 }: { maxWaitMs?: number } = {},
): Promise<Response> {
  const started = Date.now();
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 429) return response;
    const wait = waitForReset(response);
    if (Date.now() - started + wait > maxWaitMs) return response;
    await response.arrayBuffer();
    await sleep(wait);
  }
}

/** An access token for the API by the password grant (the local test client). */
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

/** A Management API token of the local operator's application (every scope). */
export async function managementToken(stack: StackInfo): Promise<string> {
  const response = await fetch(`${stack.idp.issuer}oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: stack.idp.m2mClientId,
      client_secret: stack.idp.m2mClientSecret,
      audience: `${stack.idp.issuer}api/v2/`,
    }),
  });
  if (!response.ok) throw new Error(`client_credentials failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A JWT's payload, unverified (the caller just received it from the provider). */
export function tokenClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
}

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  token: string;
}

/** A fresh user in the identity provider (through the Management API) with an API access token. */
export async function createTestUser(
  stack: StackInfo,
  appMetadata: Record<string, unknown> = {
    role: 'user',
    organization_type: 'commercial',
    kyc_status: 'not_started',
  },
  options: { emailVerified?: boolean } = {},
): Promise<TestUser> {
  const email = `user-${randomBytes(6).toString('hex')}@test-org.example`;
  const password = `Pw-${randomBytes(12).toString('base64url')}`;
  const response = await managementFetch(`${stack.idp.issuer}api/v2/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await managementToken(stack)}` },
    body: JSON.stringify({
      email,
      password,
      name: 'Test User',
      connection: 'Username-Password-Authentication',
      email_verified: options.emailVerified ?? true,
      app_metadata: appMetadata,
    }),
  });
  if (response.status !== 201)
    throw new Error(`creating a test user failed: ${response.status} ${await response.text()}`);
  const user = (await response.json()) as { user_id: string };
  return { userId: user.user_id, email, password, token: await passwordToken(stack, email, password) };
}
