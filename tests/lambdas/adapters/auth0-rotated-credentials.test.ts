import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getUserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { clearSecretCache } from '#lambdas/adapters/secrets.ts';
import { secretEnvVars } from '#lambdas/grants.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { TEST_CLIENTS, TEST_M2M_CLIENTS, TEST_USER, testIdpOptions } from '#tests/helpers/idp.ts';

// Rotated Auth0 machine-to-machine credentials, as a function sees them: the secret in Secrets
// Manager (mocked, to script its versions and faults) and the local identity provider, which
// refuses a client secret it does not know with 401 like Auth0. What reaches the identity provider
// is recorded at the HTTP boundary.

const secrets = mockClient(SecretsManagerClient);
const SECRET_ID = 'auth0-read-users-secret';
const readUsers = TEST_M2M_CLIENTS.auth0ReadUsers;
/** What the secret held before Auth0's dashboard rotated the client secret. */
const rotatedAway = { clientId: readUsers.clientId, clientSecret: 'the-secret-before-rotation' };

let idp: RunningIdp;
let userId: string;
let tokenRequests: string[] = [];
let secretReads = 0;
/** The secret's versions, the current one last; a function (not a value) injects a fault. */
let current: () => { VersionId: string; SecretString: string };

const version = (id: string, credentials: { clientId: string; clientSecret: string }) => () => ({
  VersionId: id,
  SecretString: JSON.stringify(credentials),
});

beforeAll(async () => {
  const port = await freePort();
  idp = await startIdp(testIdpOptions({ port }));
  Object.assign(process.env, {
    AWS_REGION: 'eu-central-1',
    AUTH0_DOMAIN: `localhost:${port}`,
    AUTH0_MANAGEMENT_BASE_URL: idp.url,
    [secretEnvVars.auth0ReadUsers]: SECRET_ID,
  });
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith('/oauth/token')) {
      tokenRequests.push(new URLSearchParams(String(init?.body)).get('client_id') ?? '');
    }
    return realFetch(input, init);
  });
  // The seeded user, found with every scope (setup, not the code under test).
  const token = await (
    await realFetch(`${idp.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        audience: `${idp.url}/api/v2/`,
        client_id: TEST_CLIENTS.m2m.clientId,
        client_secret: TEST_CLIENTS.m2m.clientSecret,
      }),
    })
  ).json();
  const found = (await (
    await realFetch(`${idp.url}/api/v2/users-by-email?email=${encodeURIComponent(TEST_USER.email)}`, {
      headers: { authorization: `Bearer ${(token as { access_token: string }).access_token}` },
    })
  ).json()) as { user_id: string }[];
  userId = found[0]?.user_id ?? '';
  expect(userId).not.toBe('');
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await idp?.close();
});

beforeEach(() => {
  clearSecretCache();
  tokenRequests = [];
  secretReads = 0;
  secrets.reset();
  secrets.on(GetSecretValueCommand, { SecretId: SECRET_ID }).callsFake(async () => {
    secretReads += 1;
    return current();
  });
});

afterEach(() => {
  vi.useRealTimers();
});

/** GET the user as `GET /api/me` does; the error's Auth0 status when it fails. */
async function readUser(): Promise<{ email?: string; failed?: number | string }> {
  try {
    const user = await (await getUserDirectory('auth0ReadUsers')).get(userId);
    return { email: user?.email ?? '' };
  } catch (error) {
    return { failed: (error as { status?: number }).status ?? (error as Error).name };
  }
}

describe('rotated Auth0 M2M credentials', () => {
  it('are used at the first 401 after the new secret is stored, without waiting for the secret cache', async () => {
    // Auth0 rotated the secret; the function still holds the old one (read a minute ago).
    current = version('v1', rotatedAway);
    expect(await readUser()).toEqual({ failed: 401 });
    // The operator stores the new secret: the next call is refused once, reads the secret again, and succeeds.
    current = version('v2', readUsers);
    const readsBefore = secretReads;
    expect(await readUser()).toEqual({ email: TEST_USER.email });
    expect(secretReads - readsBefore).toBe(1);
    expect(tokenRequests.at(-1)).toBe(readUsers.clientId);
    // And from then on, with no further reads within the cache time.
    expect(await readUser()).toEqual({ email: TEST_USER.email });
    expect(secretReads - readsBefore).toBe(1);
  });

  it('read the secret again only once per refusal while it still holds the refused credentials', async () => {
    current = version('v1', rotatedAway);
    expect(await readUser()).toEqual({ failed: 401 });
    const readsBefore = secretReads;
    expect(await readUser()).toEqual({ failed: 401 });
    expect(secretReads - readsBefore).toBe(1);
  });

  it('share one read of the secret between concurrent refusals', async () => {
    current = version('v1', readUsers);
    expect(await readUser()).toEqual({ email: TEST_USER.email });
    current = version('v1', rotatedAway);
    clearSecretCache();
    expect(await readUser()).toEqual({ failed: 401 });
    current = version('v2', readUsers);
    const readsBefore = secretReads;
    const answers = await Promise.all(Array.from({ length: 5 }, () => readUser()));
    expect(answers).toEqual(Array.from({ length: 5 }, () => ({ email: TEST_USER.email })));
    expect(secretReads - readsBefore).toBeLessThanOrEqual(2);
  });

  it("are picked up when the secret's version changes, within the secret cache's five minutes, with no 401", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    current = version('v1', readUsers);
    expect(await readUser()).toEqual({ email: TEST_USER.email });
    // A new application's credentials (e.g. moving the function to another M2M application).
    current = version('v2', TEST_CLIENTS.m2m);
    expect(await readUser()).toEqual({ email: TEST_USER.email });
    expect(tokenRequests).toEqual([readUsers.clientId]);
    vi.setSystemTime(Date.now() + 5 * 60 * 1000 + 1000);
    expect(await readUser()).toEqual({ email: TEST_USER.email });
    // The old token was still valid for hours: only a rebuilt client asks for a new one.
    expect(tokenRequests).toEqual([readUsers.clientId, TEST_CLIENTS.m2m.clientId]);
  });

  it('survive Secrets Manager failing: the failed read is not cached, and the next call reads again', async () => {
    current = () => {
      throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    };
    expect(await readUser()).toEqual({ failed: 'ThrottlingException' });
    current = version('v1', readUsers);
    expect(await readUser()).toEqual({ email: TEST_USER.email });
  });

  it('surface the 401 when the secret cannot be read again after it, and recover on the next call', async () => {
    current = version('v1', rotatedAway);
    expect(await readUser()).toEqual({ failed: 401 });
    current = () => {
      throw Object.assign(new Error('Service unavailable'), { name: 'ServiceUnavailable' });
    };
    expect(await readUser()).toEqual({ failed: 401 });
    current = version('v2', readUsers);
    expect(await readUser()).toEqual({ email: TEST_USER.email });
  });

  it('refuse a secret without clientId and clientSecret, naming it', async () => {
    current = () => ({ VersionId: 'v9', SecretString: '{"clientId":"x"}' });
    const error = await (async () => {
      try {
        await getUserDirectory('auth0ReadUsers');
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(error).toMatch(/auth0ReadUsers secret must hold \{clientId, clientSecret\}/);
  });
});
