import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManagementApi, TenantQuota } from '#lambdas/adapters/auth0-management-api.ts';
import {
  Auth0UserDirectory,
  DirectoryUnavailableError,
  type RetryPolicy,
} from '#lambdas/adapters/auth0-user-directory.ts';
import { UserAlreadyExistsError } from '#lambdas/domain/ports.ts';
import { passwordTicketTtlDays } from '#lambdas/domain/registration/ports.ts';

// A faulty Auth0 tenant: each Management API request takes the next scripted answer (the last one
// repeats forever); the token endpoint always works.

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answers this late (a slow tenant). */
  delayMs?: number;
}

let server: Server;
let baseUrl: string;
let script: Answer[] = [];
let requests: { method: string; path: string; body: unknown }[] = [];

const user = {
  user_id: 'auth0|abc',
  email: 'ada@helix-labs.example',
  email_verified: false,
  name: 'Ada',
  app_metadata: { role: 'user', kyc_status: 'pending', nested: { x: 1 } },
};

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function send(res: ServerResponse, answer: Answer) {
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/oauth/token') {
      return send(res, {
        status: 200,
        body: { access_token: 'token', expires_in: 86400, token_type: 'Bearer' },
      });
    }
    requests.push({ method: req.method ?? '', path, body });
    const answer = script.length > 1 ? script.shift() : script[0];
    if (answer?.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (!res.closed) send(res, answer ?? { status: 500 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  requests = [];
});

const directory = (policy?: RetryPolicy) =>
  new Auth0UserDirectory(
    createManagementApi({
      domain: 'tenant.example',
      clientId: 'id',
      clientSecret: 'secret',
      baseUrl,
      // Each test its own tenant: a 429 one test scripts must not hold back the next test's calls.
      quota: new TenantQuota(),
    }),
    policy,
  );

const auth0Error = (status: number, headers: Record<string, string> = {}): Answer => ({
  status,
  headers,
  body: { statusCode: status, error: 'Error', message: 'nope', errorCode: 'x' },
});

describe('Auth0UserDirectory retries', () => {
  it('waits until x-ratelimit-reset after a 429, then succeeds', async () => {
    const reset = Math.floor(Date.now() / 1000) + 2;
    script = [auth0Error(429, { 'x-ratelimit-reset': String(reset) }), { status: 200, body: user }];
    const started = Date.now();
    const found = await directory().get('auth0|abc');
    expect(found).toEqual({
      userId: 'auth0|abc',
      email: 'ada@helix-labs.example',
      emailVerified: false,
      name: 'Ada',
      appMetadata: { role: 'user', kyc_status: 'pending' },
    });
    expect(requests).toHaveLength(2);
    expect(Date.now()).toBeGreaterThanOrEqual(reset * 1000 - 1000);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('gives up on a tenant that answers 503 forever within the bound, after a few attempts', async () => {
    script = [auth0Error(503)];
    const started = Date.now();
    const error = await directory()
      .get('auth0|abc')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectoryUnavailableError);
    expect((error as DirectoryUnavailableError).statusCode).toBe(503);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.length).toBeLessThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('fails at once instead of sleeping past the bound when the reset is a minute away', async () => {
    script = [auth0Error(429, { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60) })];
    const started = Date.now();
    await expect(directory().get('auth0|abc')).rejects.toBeInstanceOf(DirectoryUnavailableError);
    expect(requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('retries a read that timed out, but not a PATCH, whose late landing only a later check can see', async () => {
    const slow = directory({ maxAttempts: 4, maxElapsedMs: 5_000, requestTimeoutMs: 500, baseDelayMs: 10 });
    script = [
      { status: 200, body: user, delayMs: 800 },
      { status: 200, body: user },
    ];
    expect((await slow.get('auth0|abc'))?.userId).toBe('auth0|abc');
    expect(requests).toHaveLength(2);

    requests = [];
    script = [
      { status: 200, body: user, delayMs: 800 },
      { status: 200, body: user },
    ];
    const error = await slow
      .updateAppMetadata('auth0|abc', { kyc_status: 'approved' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectoryUnavailableError);
    expect((error as DirectoryUnavailableError).statusCode).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('honours Retry-After seconds', async () => {
    script = [auth0Error(503, { 'retry-after': '1' }), { status: 200, body: [user] }];
    const started = Date.now();
    expect((await directory().findByEmail('ADA@helix-labs.example'))?.userId).toBe('auth0|abc');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(requests).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    script = [auth0Error(400)];
    await expect(directory().get('auth0|abc')).rejects.not.toBeInstanceOf(DirectoryUnavailableError);
    expect(requests).toHaveLength(1);
  });
});

describe('Auth0UserDirectory calls', () => {
  it('maps a 409 on create to UserAlreadyExistsError', async () => {
    script = [auth0Error(409)];
    await expect(
      directory().create({
        email: 'a@b.example',
        name: 'A',
        password: 'x'.repeat(20),
        appMetadata: { role: 'user' },
      }),
    ).rejects.toBeInstanceOf(UserAlreadyExistsError);
  });

  it('creates users in the database connection, unverified, with the given app_metadata', async () => {
    script = [{ status: 201, body: user }];
    await directory().create({
      email: 'ada@helix-labs.example',
      name: 'Ada',
      password: 'p'.repeat(24),
      appMetadata: { role: 'user', organization_type: 'defense', kyc_status: 'not_started' },
    });
    expect(requests[0]).toEqual({
      method: 'POST',
      path: '/api/v2/users',
      body: {
        connection: 'Username-Password-Authentication',
        email: 'ada@helix-labs.example',
        password: 'p'.repeat(24),
        name: 'Ada',
        email_verified: false,
        verify_email: false,
        app_metadata: { role: 'user', organization_type: 'defense', kyc_status: 'not_started' },
      },
    });
  });

  it('answers undefined for a user that does not exist', async () => {
    script = [auth0Error(404)];
    expect(await directory().get('auth0|gone')).toBeUndefined();
  });

  it('counts deleting a user Auth0 no longer has as done, and sends the id encoded', async () => {
    script = [auth0Error(404)];
    await directory().delete('auth0|gone');
    expect(requests).toEqual([{ method: 'DELETE', path: '/api/v2/users/auth0%7Cgone', body: undefined }]);
  });

  it('never sends an empty app_metadata patch', async () => {
    await directory().updateAppMetadata('auth0|abc', {});
    await directory().updateAppMetadata('auth0|abc', { kyc_status: undefined });
    expect(requests).toEqual([]);
  });

  it('refuses a nested app_metadata value without calling Auth0', async () => {
    const nested = { kyc_status: { value: 'approved' } } as unknown as { kyc_status: 'approved' };
    await expect(directory().updateAppMetadata('auth0|abc', nested)).rejects.toThrow(/flat/);
    expect(requests).toEqual([]);
  });

  it('patches only the given flat keys, with null deleting a key', async () => {
    script = [{ status: 200, body: user }];
    await directory().updateAppMetadata('auth0|a b', { kyc_status: 'approved', kyc_updated_at: null });
    expect(requests).toEqual([
      {
        method: 'PATCH',
        path: '/api/v2/users/auth0%7Ca%20b',
        body: { app_metadata: { kyc_status: 'approved', kyc_updated_at: null } },
      },
    ]);
  });

  it('asks for a password ticket that verifies the email and expires', async () => {
    script = [{ status: 201, body: { ticket: 'https://tenant.example/lo/reset?ticket=T#' } }];
    const url = await directory().createPasswordChangeTicket('auth0|abc', 'https://app.example/auth/login');
    expect(url).toBe('https://tenant.example/lo/reset?ticket=T#');
    expect(requests[0]?.body).toEqual({
      user_id: 'auth0|abc',
      result_url: 'https://app.example/auth/login',
      ttl_sec: passwordTicketTtlDays * 24 * 60 * 60,
      mark_email_as_verified: true,
    });
  });

  it('starts a verification-email job for the user', async () => {
    script = [{ status: 201, body: { id: 'job_1', type: 'verification_email', status: 'pending' } }];
    await directory().sendVerificationEmail('auth0|abc');
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/v2/jobs/verification-email',
      body: { user_id: 'auth0|abc' },
    });
  });
});
