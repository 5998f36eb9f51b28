import { describe, expect, it } from 'vitest';
import {
  auth0PlanFromEnv,
  auth0Plans,
  clientOf,
  createManagementApiStats,
  NO_CLIENT,
  operationKey,
  TokenBucket,
} from '#local/idp/rate-limit.ts';

// The local identity provider's Management API quota (ADR 0061), on an injected clock: Auth0's
// token bucket (burst = bucket size, sustained = refill rate, refilled by the millisecond).

function clock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('the Management API token bucket', () => {
  it('lets a full burst through at once, then answers the next call refused', () => {
    const time = clock();
    const bucket = new TokenBucket(auth0Plans['self-service'], time.now);
    const answers = Array.from({ length: 51 }, () => bucket.take());
    expect(answers.slice(0, 50).every((answer) => answer.allowed)).toBe(true);
    expect(answers.map((answer) => answer.remaining).slice(0, 3)).toEqual([49, 48, 47]);
    expect(answers[49]).toMatchObject({ allowed: true, remaining: 0 });
    expect(answers[50]).toMatchObject({ allowed: false, limit: 50, remaining: 0 });
  });

  it('refills at the sustained rate, by the millisecond, never above the burst', () => {
    const time = clock();
    const bucket = new TokenBucket(auth0Plans.free, time.now);
    expect(bucket.take().allowed).toBe(true);
    expect(bucket.take().allowed).toBe(true);
    expect(bucket.take().allowed).toBe(false);
    // 2 a second: one request's worth every 500 ms, none before.
    time.advance(499);
    expect(bucket.take().allowed).toBe(false);
    time.advance(1);
    expect(bucket.take()).toMatchObject({ allowed: true, remaining: 0 });
    // Ten idle seconds refill the bucket only to its size.
    time.advance(10_000);
    expect(bucket.peek()).toMatchObject({ allowed: true, remaining: 2, limit: 2 });
    expect([bucket.take(), bucket.take(), bucket.take()].map((answer) => answer.allowed)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('holds the sustained rate over a long run: 16 a second on Self Service after the burst', () => {
    const time = clock();
    const bucket = new TokenBucket(auth0Plans['self-service'], time.now);
    let allowed = 0;
    // A call every 10 ms (100/s) for 10 s: the burst, then 16 a second.
    for (let ms = 0; ms < 10_000; ms += 10) {
      if (bucket.take().allowed) allowed += 1;
      time.advance(10);
    }
    expect(allowed).toBe(50 + 16 * 10 - 1);
  });

  it('answers x-ratelimit-reset as the epoch second by which the bucket is full again, rounded up', () => {
    const time = clock(1_700_000_000_250);
    const bucket = new TokenBucket(auth0Plans.free, time.now);
    // Full: reset is now (rounded up to the second).
    expect(bucket.peek()).toMatchObject({ remaining: 2, reset: 1_700_000_001 });
    bucket.take();
    // One request short at 2/s: full 500 ms from now, 1_700_000_000.750 → second ...001.
    expect(bucket.peek()).toMatchObject({ remaining: 1, reset: 1_700_000_001 });
    bucket.take();
    // Empty: full 1 s from now, 1_700_000_001.250 → ...002.
    const refused = bucket.take();
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 2, reset: 1_700_000_002 });
    // Waiting until the announced reset finds the whole burst there.
    time.advance(refused.reset * 1000 - time.now());
    expect(bucket.peek()).toMatchObject({ remaining: 2 });

    // Self Service from empty: 50 requests at 16/s = 3.125 s.
    const paid = new TokenBucket(auth0Plans['self-service'], clock(1_700_000_000_000).now);
    for (let n = 0; n < 50; n++) paid.take();
    expect(paid.take()).toMatchObject({ allowed: false, reset: 1_700_000_004 });
  });

  it('refuses a bucket that could never let a call through', () => {
    expect(() => new TokenBucket({ burst: 0, perSecond: 2 })).toThrow();
    expect(() => new TokenBucket({ burst: 2, perSecond: 0 })).toThrow();
  });
});

describe('LOCAL_AUTH0_PLAN', () => {
  it('is Free when unset or empty, takes the two plans by name, and refuses anything else', () => {
    expect(auth0PlanFromEnv(undefined)).toEqual({ name: 'free', burst: 2, perSecond: 2 });
    expect(auth0PlanFromEnv('')).toEqual(auth0Plans.free);
    expect(auth0PlanFromEnv('self-service')).toEqual({ name: 'self-service', burst: 50, perSecond: 16 });
    expect(() => auth0PlanFromEnv('enterprise')).toThrow(/free, self-service/);
    expect(() => auth0PlanFromEnv('toString')).toThrow();
  });
});

describe('the Management API counters', () => {
  const jwt = (payload: Record<string, unknown>) =>
    `Bearer e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

  it('keys operations with ids as placeholders and the query dropped', () => {
    expect(operationKey('get', '/api/v2/users/auth0%7C65f0c2')).toBe('GET /api/v2/users/{id}');
    expect(operationKey('PATCH', '/api/v2/users/auth0|abc')).toBe('PATCH /api/v2/users/{id}');
    expect(operationKey('GET', '/api/v2/users-by-email?email=a%40b.example')).toBe(
      'GET /api/v2/users-by-email',
    );
    expect(operationKey('POST', '/api/v2/jobs/verification-email')).toBe(
      'POST /api/v2/jobs/verification-email',
    );
    expect(operationKey('GET', '/api/v2/jobs/job_Ab12')).toBe('GET /api/v2/jobs/{id}');
    expect(operationKey('GET', '/api/v2/users/auth0|1/roles')).toBe('GET /api/v2/users/{id}/roles');
    expect(operationKey('POST', '/api/v2/tickets/password-change')).toBe(
      'POST /api/v2/tickets/password-change',
    );
  });

  it("names the calling client from the token's azp, else client_id", () => {
    expect(clientOf(jwt({ azp: 'local-m2m-kyc', client_id: 'other' }))).toBe('local-m2m-kyc');
    expect(clientOf(jwt({ client_id: 'local-m2m-registration' }))).toBe('local-m2m-registration');
    expect(clientOf(undefined)).toBe(NO_CLIENT);
    expect(clientOf('Bearer not-a-jwt')).toBe(NO_CLIENT);
    expect(clientOf(jwt({ sub: 'x' }))).toBe(NO_CLIENT);
  });

  it('counts calls, 429s, the busiest wall-clock second, per client and per operation; reset zeroes them', () => {
    const time = clock(1_700_000_000_900);
    const stats = createManagementApiStats('free', time.now);
    const call = (azp: string, path: string, method = 'GET') =>
      stats.received({ method, path, authorization: jwt({ azp }) });
    // Two in the second ...000, then three in ...001 (100 ms later), one in ...002.
    call('a', '/api/v2/users/auth0|1');
    call('a', '/api/v2/users/auth0|2');
    time.advance(100);
    call('b', '/api/v2/users/auth0|3', 'PATCH');
    call('b', '/api/v2/users');
    stats.limited();
    call('a', '/api/v2/users/auth0|1');
    time.advance(1_000);
    call('a', '/api/v2/users-by-email?email=x');
    expect(stats.snapshot()).toEqual({
      plan: 'free',
      calls: 6,
      rateLimited: 1,
      peakPerSecond: 3,
      byClient: { a: 4, b: 2 },
      byOperation: {
        'GET /api/v2/users/{id}': 3,
        'PATCH /api/v2/users/{id}': 1,
        'GET /api/v2/users': 1,
        'GET /api/v2/users-by-email': 1,
      },
    });
    stats.reset();
    expect(stats.snapshot()).toEqual({
      plan: 'free',
      calls: 0,
      rateLimited: 0,
      peakPerSecond: 0,
      byClient: {},
      byOperation: {},
    });
  });
});
