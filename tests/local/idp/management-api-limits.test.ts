import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import {
  auth0Plans,
  type ManagementApiStats,
  managementApiStatsPath,
  NO_CLIENT,
} from '#local/idp/rate-limit.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { managementToken, TEST_CLIENTS, TEST_M2M_CLIENTS, testIdpOptions } from '#tests/helpers/idp.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';

// The identity provider enforces Auth0's Management API quota at the Free plan (burst 2, 2/s),
// one bucket for the whole tenant, and counts every call for the stats endpoint (ADR 0061).
// Nothing here depends on how fast the machine is: calls are sent until the bucket refuses one.

let idp: RunningIdp;
let operatorToken: string;
let kycToken: string;

beforeAll(async () => {
  idp = await startIdp(testIdpOptions({ port: await freePort(), managementApiPlan: auth0Plans.free }));
  operatorToken = await managementToken(idp.url);
  kycToken = await managementToken(idp.url, undefined, TEST_M2M_CLIENTS.auth0KycSync);
});

afterAll(async () => {
  await idp?.close();
});

const lookup = (token: string, email = 'nobody@test.example') =>
  fetch(`${idp.url}/api/v2/users-by-email?email=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${token}` },
  });

async function stats(method: 'GET' | 'DELETE' = 'GET'): Promise<ManagementApiStats> {
  const response = await fetch(`${idp.url}${managementApiStatsPath}`, { method });
  expect(response.status).toBe(200);
  return (await response.json()) as ManagementApiStats;
}

/** Calls until the bucket answers 429 (a refill of 2/s cannot keep up with calls one after another). */
async function untilRefused(token: string) {
  const statuses: number[] = [];
  for (let n = 0; n < 200; n++) {
    const response = await lookup(token);
    statuses.push(response.status);
    if (response.status === 429) return { statuses, refused: response };
    await response.arrayBuffer();
  }
  throw new Error(`200 calls in a row at 2/s and none refused: ${statuses.join(',')}`);
}

const header = (response: Response, name: string) => response.headers.get(name);

beforeEach(async () => {
  await fetch(`${idp.url}/__local/faults`, { method: 'DELETE' });
  // Start each test with a full bucket: wait until the last answer's reset.
  const probe = await managementFetch(`${idp.url}/api/v2/users-by-email?email=nobody%40test.example`, {
    headers: { authorization: `Bearer ${operatorToken}` },
  });
  const reset = Number(header(probe, 'x-ratelimit-reset'));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, reset * 1000 - Date.now())));
  await stats('DELETE');
});

describe('the Management API at the Free plan', () => {
  it('answers 429 past the burst, with Auth0 body and x-ratelimit-* headers', async () => {
    const { statuses, refused } = await untilRefused(operatorToken);
    // At least the burst went through before the first refusal.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Global limit has been reached',
      errorCode: 'too_many_requests',
    });
    expect(header(refused, 'x-ratelimit-limit')).toBe('2');
    expect(header(refused, 'x-ratelimit-remaining')).toBe('0');
    // Epoch seconds, at most a refill of the whole bucket (1 s) away, rounded up.
    const reset = Number(header(refused, 'x-ratelimit-reset'));
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 2);

    // Waiting until the reset it announced, the next call goes through.
    await new Promise((resolve) => setTimeout(resolve, reset * 1000 - Date.now()));
    expect((await lookup(operatorToken)).status).toBe(200);
  });

  it('sends the headers on every answer, not only on 429s', async () => {
    const ok = await lookup(operatorToken);
    expect(ok.status).toBe(200);
    expect(header(ok, 'x-ratelimit-limit')).toBe('2');
    // A full bucket of 2, one taken by this call.
    expect(header(ok, 'x-ratelimit-remaining')).toBe('1');
    expect(Number(header(ok, 'x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    const unauthorized = await lookup('not-a-token');
    expect(unauthorized.status).toBe(401);
    expect(header(unauthorized, 'x-ratelimit-limit')).toBe('2');
    expect(header(unauthorized, 'x-ratelimit-remaining')).not.toBeNull();
  });

  it('is one quota for the tenant: a second M2M client finds the bucket the first emptied', async () => {
    await untilRefused(operatorToken);
    const other = await lookup(kycToken);
    expect(other.status).toBe(429);
  });

  it('leaves tokens (the Authentication API) alone while the Management API is refusing', async () => {
    await untilRefused(operatorToken);
    expect(await managementToken(idp.url)).toBeTruthy();
  });
});

describe(`GET ${managementApiStatsPath}`, () => {
  it('counts every call, the 429s (bucket and fault knob), per client and per operation', async () => {
    const { statuses } = await untilRefused(operatorToken);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const userPath = `${idp.url}/api/v2/users/${encodeURIComponent('auth0|does-not-exist')}`;
    const missing = await fetch(userPath, { headers: { authorization: `Bearer ${kycToken}` } });
    expect(missing.status).toBe(404);
    const anonymous = await fetch(userPath, { method: 'PATCH' });
    expect(anonymous.status).toBe(401);
    // The fault knob's 429 comes on top of the bucket, and counts as rate limited too.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await fetch(`${idp.url}/__local/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ managementApi: { rateLimitRate: 1 } }),
    });
    const faulted = await lookup(kycToken);
    expect(faulted.status).toBe(429);
    expect(header(faulted, 'x-ratelimit-limit')).toBe('2');

    const counted = await stats();
    const calls = statuses.length + 3;
    expect(counted).toEqual({
      plan: 'free',
      calls,
      rateLimited: 2,
      peakPerSecond: expect.any(Number),
      byClient: {
        [TEST_CLIENTS.m2m.clientId]: statuses.length,
        [TEST_M2M_CLIENTS.auth0KycSync.clientId]: 2,
        [NO_CLIENT]: 1,
      },
      byOperation: {
        'GET /api/v2/users-by-email': statuses.length + 1,
        'GET /api/v2/users/{id}': 1,
        'PATCH /api/v2/users/{id}': 1,
      },
    });
    expect(counted.peakPerSecond).toBeGreaterThanOrEqual(1);
    expect(counted.peakPerSecond).toBeLessThanOrEqual(calls);
    // Tokens and the stats endpoint itself are not Management API calls.
    await managementToken(idp.url);
    expect((await stats()).calls).toBe(calls);
  });

  it('DELETE answers the counts as they were and starts them afresh', async () => {
    expect((await lookup(operatorToken)).status).toBe(200);
    const before = await stats('DELETE');
    expect(before).toMatchObject({ plan: 'free', calls: 1, rateLimited: 0, peakPerSecond: 1 });
    expect(await stats()).toEqual({
      plan: 'free',
      calls: 0,
      rateLimited: 0,
      peakPerSecond: 0,
      byClient: {},
      byOperation: {},
    });
    expect((await fetch(`${idp.url}${managementApiStatsPath}`, { method: 'POST' })).status).toBe(405);
  });
});
