import type { StackInfo } from '#local/stack.ts';

// Calls to the local identity provider that tooling and tests both make: tokens obtained the way
// scripts do against Auth0, and Management API calls that wait out the tenant's quota.
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
