import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sesServer from 'aws-ses-v2-local';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createManagementApi,
  type ManagementApi,
  ManagementApiError,
  ManagementTimeoutError,
  serverRequestedDelayMs,
  TenantQuota,
} from '#lambdas/adapters/auth0-management-api.ts';
import {
  Auth0UserDirectory,
  DirectoryUnavailableError,
  isPermanentDirectoryError,
  type RetryPolicy,
} from '#lambdas/adapters/auth0-user-directory.ts';
import { UserAlreadyExistsError } from '#lambdas/domain/ports.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { routes } from '#lambdas/routes.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { passwordGrant, TEST_CLIENTS, testIdpOptions } from '#tests/helpers/idp.ts';

const m2m = TEST_CLIENTS.m2m;

describe('the Lambda functions', () => {
  it('reach Auth0 without the auth0 SDK: no handler imports it, even where a bundler could drop it', async () => {
    const handlers = [...new Set([...routes, ...eventRules].map((definition) => definition.handler))];
    const { metafile } = await build({
      entryPoints: handlers.map((handler) => `lambdas/handlers/${handler}.ts`),
      outdir: 'unused',
      write: false,
      bundle: true,
      format: 'esm',
      platform: 'node',
      metafile: true,
      logLevel: 'silent',
    });
    const sdk = /node_modules\/auth0\//;
    const importersOfTheSdk = Object.entries(metafile.inputs)
      .filter(([file, input]) => !sdk.test(file) && input.imports.some((imported) => sdk.test(imported.path)))
      .map(([file]) => file);
    expect(Object.keys(metafile.inputs)).toContain('lambdas/adapters/auth0-management-api.ts');
    expect(importersOfTheSdk).toEqual([]);
  }, 30_000);
});

describe('the Management API client against the local identity provider', () => {
  let idp: RunningIdp;
  let ses: Server;
  let sesUrl: string;
  let api: ManagementApi;

  beforeAll(async () => {
    const sesPort = await freePort();
    ses = await sesServer({ host: '127.0.0.1', port: sesPort });
    sesUrl = `http://127.0.0.1:${sesPort}`;
    const port = await freePort();
    idp = await startIdp(testIdpOptions({ port, sesEndpoint: sesUrl }));
    api = createManagementApi({ domain: `localhost:${port}`, ...m2m, baseUrl: idp.url });
  });

  afterAll(async () => {
    await idp?.close();
    await new Promise<void>((resolve) => (ses ? ses.close(() => resolve()) : resolve()));
  });

  async function mailsTo(address: string): Promise<{ body: { text?: string } }[]> {
    const store = (await (await fetch(`${sesUrl}/store`)).json()) as {
      emails: { destination: { to: string[] }; body: { text?: string } }[];
    };
    return store.emails.filter((mail) => mail.destination.to.includes(address));
  }

  it('creates, finds, patches and deletes a user', async () => {
    const created = await api.users.create({
      connection: 'Username-Password-Authentication',
      email: 'lean.client@example.com',
      password: 'Initial-Pass-1',
      name: 'Lean Client',
      email_verified: false,
      verify_email: false,
      app_metadata: { role: 'user', kyc_status: 'not_started', organization_type: 'commercial' },
    });
    const userId = created.user_id ?? '';
    expect(userId).toMatch(/^auth0\|/);

    expect(await api.users.get(userId)).toMatchObject({
      user_id: userId,
      email: 'lean.client@example.com',
      email_verified: false,
      name: 'Lean Client',
      app_metadata: { role: 'user', kyc_status: 'not_started', organization_type: 'commercial' },
    });
    const found = await api.users.listUsersByEmail({ email: 'Lean.Client@EXAMPLE.com' });
    expect(found.map((user) => user.user_id)).toEqual([userId]);
    expect(await api.users.listUsersByEmail({ email: 'nobody@example.com' })).toEqual([]);

    const updated = await api.users.update(userId, {
      app_metadata: { kyc_status: 'approved', organization_type: null },
    });
    expect(updated.app_metadata).toEqual({ role: 'user', kyc_status: 'approved' });
    expect((await api.users.get(userId)).app_metadata).toEqual({ role: 'user', kyc_status: 'approved' });

    await api.users.delete(userId);
    const gone = await api.users.get(userId).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ManagementApiError);
    expect(gone).toMatchObject({ status: 404, errorCode: 'inexistent_user' });
  });

  it('answers a duplicate create with a 409 ManagementApiError', async () => {
    const user = {
      connection: 'Username-Password-Authentication',
      email: 'twice@example.com',
      password: 'Initial-Pass-1',
    };
    await api.users.create(user);
    const error = await api.users.create({ ...user, email: 'TWICE@example.com' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementApiError);
    expect(error).toMatchObject({ status: 409, detail: 'The user already exists.' });
  });

  it('issues a password-change ticket that really sets the password and verifies the email', async () => {
    const { user_id } = await api.users.create({
      connection: 'Username-Password-Authentication',
      email: 'lean-ticket@example.com',
      password: 'Initial-Pass-1',
      // As registration creates it: the post-login Action lets in no other account (ADR 0074).
      app_metadata: { role: 'user', organization_type: 'commercial' },
    });
    const { ticket } = await api.tickets.changePassword({
      user_id: user_id ?? '',
      result_url: 'http://localhost:5173/auth/login',
      ttl_sec: 3600,
      mark_email_as_verified: true,
    });
    expect(ticket.startsWith(`${idp.issuer}lo/reset?ticket=`)).toBe(true);

    const done = await fetch(`${idp.url}/lo/reset`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ticket: new URL(ticket).searchParams.get('ticket') ?? '',
        password: 'Chosen-Pass-12',
        confirm: 'Chosen-Pass-12',
      }),
    });
    expect(done.status).toBe(302);
    expect((await passwordGrant(idp.url, 'lean-ticket@example.com', 'Chosen-Pass-12')).status).toBe(200);
    expect((await api.users.get(user_id ?? '')).email_verified).toBe(true);
  });

  it('starts a verification-email job whose email arrives and verifies the address', async () => {
    const { user_id } = await api.users.create({
      connection: 'Username-Password-Authentication',
      email: 'lean-verify@example.com',
      password: 'Initial-Pass-1',
    });
    const job = await api.jobs.verificationEmail.create({ user_id: user_id ?? '' });
    expect(job).toMatchObject({ type: 'verification_email', status: 'pending' });
    expect(job.id).toMatch(/^job_/);

    const [mail] = await mailsTo('lean-verify@example.com');
    const link = /(http:\/\/localhost:\d+\/\S+)/.exec(mail?.body.text ?? '')?.[1] ?? '';
    expect((await fetch(link)).status).toBe(200);
    expect((await api.users.get(user_id ?? '')).email_verified).toBe(true);
  });

  it('serves the user directory end to end: registration, duplicates, lookups, erasure', async () => {
    const directory = new Auth0UserDirectory(api);
    const input = {
      email: 'directory@example.com',
      name: 'Directory User',
      password: 'A-Long-Random-Password-1',
      appMetadata: { role: 'user', organization_type: 'defense', kyc_status: 'not_started' },
    } as const;
    const created = await directory.create(input);
    expect(created).toEqual({
      userId: created.userId,
      email: 'directory@example.com',
      emailVerified: false,
      name: 'Directory User',
      appMetadata: input.appMetadata,
    });
    await expect(directory.create(input)).rejects.toBeInstanceOf(UserAlreadyExistsError);
    expect((await directory.findByEmail(' Directory@Example.com '))?.userId).toBe(created.userId);

    await directory.updateAppMetadata(created.userId, { kyc_status: 'pending' });
    expect((await directory.get(created.userId))?.appMetadata.kyc_status).toBe('pending');

    await directory.delete(created.userId);
    expect(await directory.get(created.userId)).toBeUndefined();
    await directory.delete(created.userId);
  });

  it('refuses wrong client credentials with a 401 that does not echo the secret, and that an event target keeps (ours to fix, then replay)', async () => {
    const wrong = createManagementApi({
      domain: 'localhost',
      clientId: m2m.clientId,
      clientSecret: 'not-the-secret',
      baseUrl: idp.url,
    });
    const error = await wrong.users.get('auth0|x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementApiError);
    expect(error).toMatchObject({ operation: 'oauth.token', status: 401 });
    expect(String(error)).not.toContain('not-the-secret');
    expect(isPermanentDirectoryError(error)).toBe(false);
  });
});

// A scriptable Auth0 tenant on loopback: the test decides every answer, and sees every request.

interface SeenRequest {
  method: string;
  /** As sent, still percent-encoded. */
  url: string;
  authorization: string | undefined;
  body: string;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang';

interface FakeTenant {
  url: string;
  tokenRequests: SeenRequest[];
  apiRequests: SeenRequest[];
}

const servers: Server[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function reply(res: ServerResponse, answer: Reply) {
  if (answer === 'hang') return;
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
}

const tokenReply =
  (expiresIn = 86_400) =>
  (seen: SeenRequest[]): Reply => ({
    status: 200,
    body: { access_token: `token-${seen.length}`, expires_in: expiresIn, token_type: 'Bearer' },
  });

async function fakeTenant(handlers: {
  api: (request: SeenRequest, seen: SeenRequest[]) => Reply | Promise<Reply>;
  token?: (seen: SeenRequest[]) => Reply | Promise<Reply>;
}): Promise<FakeTenant> {
  const tenant: FakeTenant = { url: '', tokenRequests: [], apiRequests: [] };
  const server = createServer(async (req, res) => {
    const seen: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      body: await readBody(req),
    };
    if (seen.url === '/oauth/token') {
      tenant.tokenRequests.push(seen);
      return reply(res, await (handlers.token ?? tokenReply())(tenant.tokenRequests));
    }
    tenant.apiRequests.push(seen);
    reply(res, await handlers.api(seen, tenant.apiRequests));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tenant.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return tenant;
}

const client = (tenant: FakeTenant, timeoutMs?: number) =>
  createManagementApi({
    domain: 'tenant.example',
    clientId: 'id',
    clientSecret: 's3cret',
    baseUrl: tenant.url,
    timeoutMs,
  });

const user = (id = 'auth0|abc') => ({ user_id: id, email: 'ada@helix-labs.example', name: 'Ada' });
const ok = (body: unknown = user()): Reply => ({ status: 200, body });
const auth0Error = (status: number, headers: Record<string, string> = {}): Reply => ({
  status,
  headers,
  body: { statusCode: status, error: 'Error', message: `answered ${status}`, errorCode: `code_${status}` },
});

const fastPolicy: RetryPolicy = {
  maxAttempts: 3,
  maxElapsedMs: 5_000,
  requestTimeoutMs: 1_000,
  baseDelayMs: 20,
};

describe('the Management API client: tokens', () => {
  it('asks for a client-credentials token for the tenant API once, and reuses it', async () => {
    const tenant = await fakeTenant({ api: () => ok() });
    const api = client(tenant);
    await api.users.get('auth0|abc');
    await api.users.update('auth0|abc', { app_metadata: { kyc_status: 'approved' } });
    await api.jobs.verificationEmail.create({ user_id: 'auth0|abc' });

    expect(tenant.tokenRequests).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(tenant.tokenRequests[0]?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'id',
      client_secret: 's3cret',
      audience: `${tenant.url}/api/v2/`,
    });
    expect(tenant.apiRequests.map((request) => request.authorization)).toEqual(
      Array(3).fill('Bearer token-1'),
    );
    // The secret goes to the token endpoint only.
    expect(tenant.apiRequests.some((request) => request.body.includes('s3cret'))).toBe(false);
  });

  it('lets concurrent callers share one token request', async () => {
    const tenant = await fakeTenant({
      api: () => ok(),
      token: async (seen) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return tokenReply()(seen);
      },
    });
    const api = client(tenant);
    await Promise.all(Array.from({ length: 5 }, () => api.users.get('auth0|abc')));
    expect(tenant.tokenRequests).toHaveLength(1);
    expect(tenant.apiRequests).toHaveLength(5);
  });

  it('gets a new token once the cached one is about to expire', async () => {
    const tenant = await fakeTenant({ api: () => ok(), token: tokenReply(2) });
    const api = client(tenant);
    await api.users.get('auth0|abc');
    await api.users.get('auth0|abc');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await api.users.get('auth0|abc');
    expect(tenant.apiRequests.map((request) => request.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-1',
      'Bearer token-2',
    ]);
  });

  it('replays a call refused with 401 once, with a fresh token', async () => {
    const tenant = await fakeTenant({
      api: (request) => (request.authorization === 'Bearer token-1' ? auth0Error(401) : ok()),
    });
    const api = client(tenant);
    expect((await api.users.create({ connection: 'c', email: 'a@b.example', password: 'p' })).user_id).toBe(
      'auth0|abc',
    );
    expect(tenant.tokenRequests).toHaveLength(2);
    expect(tenant.apiRequests.map((request) => [request.method, request.authorization])).toEqual([
      ['POST', 'Bearer token-1'],
      ['POST', 'Bearer token-2'],
    ]);
    await api.users.get('auth0|abc');
    expect(tenant.tokenRequests).toHaveLength(2);
  });

  it('gives up after the replay when the fresh token is refused too', async () => {
    const tenant = await fakeTenant({ api: () => auth0Error(401) });
    const error = await client(tenant)
      .users.get('auth0|abc')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementApiError);
    expect(error).toMatchObject({ status: 401, operation: 'users.get' });
    expect(tenant.apiRequests).toHaveLength(2);
  });

  it('never puts the client secret or a token into an error', async () => {
    const tenant = await fakeTenant({
      api: () => auth0Error(400),
      token: () => ({ status: 403, body: { error: 'access_denied', error_description: 'Unauthorized' } }),
    });
    const error = await client(tenant)
      .users.get('auth0|abc')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ operation: 'oauth.token', status: 403, errorCode: 'access_denied' });
    expect(JSON.stringify({ ...(error as object), message: String(error) })).not.toMatch(/s3cret|token-/);
  });
});

describe('the Management API client: requests and answers', () => {
  it('encodes user ids and emails into the path and query', async () => {
    const tenant = await fakeTenant({
      api: (request) => (request.url.startsWith('/api/v2/users-by-email') ? ok([user()]) : ok()),
    });
    const api = client(tenant);
    await api.users.get('auth0|a/b c?d#e');
    await api.users.delete('google-oauth2|1%2');
    await api.users.listUsersByEmail({ email: 'ada+kyc@helix-labs.example' });
    expect(tenant.apiRequests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/v2/users/auth0%7Ca%2Fb%20c%3Fd%23e',
      'DELETE /api/v2/users/google-oauth2%7C1%252',
      'GET /api/v2/users-by-email?email=ada%2Bkyc%40helix-labs.example',
    ]);
  });

  it('sends JSON bodies and reads an empty 204 as done', async () => {
    const tenant = await fakeTenant({
      api: (request) =>
        request.method === 'DELETE' ? { status: 204 } : { status: 201, body: { ticket: 'https://t/x' } },
    });
    const api = client(tenant);
    await api.users.delete('auth0|abc');
    const ticket = await api.tickets.changePassword({ user_id: 'auth0|abc', ttl_sec: 60 });
    expect(ticket.ticket).toBe('https://t/x');
    expect(JSON.parse(tenant.apiRequests[1]?.body ?? '')).toEqual({ user_id: 'auth0|abc', ttl_sec: 60 });
  });

  it("carries Auth0's status, errorCode, message and requested wait in its error, after one attempt", async () => {
    const tenant = await fakeTenant({ api: () => auth0Error(429, { 'retry-after': '7' }) });
    const error = await client(tenant)
      .users.get('auth0|abc')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementApiError);
    expect(error).toMatchObject({
      operation: 'users.get',
      status: 429,
      errorCode: 'code_429',
      detail: 'answered 429',
      retryAfterMs: 7_000,
    });
    expect(tenant.apiRequests).toHaveLength(1);
  });

  it('reads the wait Auth0 asks for from x-ratelimit-reset first, then Retry-After seconds or date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    const wait = (headers: Record<string, string>) => serverRequestedDelayMs(new Headers(headers), now);
    expect(wait({ 'x-ratelimit-reset': String(now / 1000 + 3), 'retry-after': '60' })).toBe(3_000);
    expect(wait({ 'x-ratelimit-reset': String(now / 1000 - 3) })).toBe(0);
    expect(wait({ 'retry-after': '2' })).toBe(2_000);
    expect(wait({ 'retry-after': 'Sat, 21 Nov 2026 10:00:05 GMT' })).toBe(5_000);
    expect(wait({ 'retry-after': 'soon' })).toBeUndefined();
    expect(wait({})).toBeUndefined();
  });

  it('reports a non-JSON error page by its status', async () => {
    const tenant = await fakeTenant({ api: () => ({ status: 502, body: undefined }) });
    await expect(client(tenant).users.get('auth0|abc')).rejects.toMatchObject({ status: 502 });
  });

  it('refuses a success answer of the wrong shape', async () => {
    const tenant = await fakeTenant({ api: () => ok({ id: 'not a ticket' }) });
    await expect(client(tenant).tickets.changePassword({ user_id: 'auth0|abc' })).rejects.toThrow(
      /tickets.changePassword answered with an unexpected shape/,
    );
  });

  it('times out on a tenant that never answers', async () => {
    const tenant = await fakeTenant({ api: () => 'hang' });
    const started = Date.now();
    const error = await client(tenant, 300)
      .users.get('auth0|abc')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementTimeoutError);
    expect(error).toMatchObject({ operation: 'users.get', timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out on a token endpoint that never answers, within the call timeout', async () => {
    const tenant = await fakeTenant({ api: () => ok(), token: () => 'hang' });
    const started = Date.now();
    await expect(client(tenant).users.get('auth0|abc', { timeoutMs: 300 })).rejects.toBeInstanceOf(
      ManagementTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(tenant.apiRequests).toHaveLength(0);
  });
});

describe("the Management API client: the tenant's one quota (ADR 0059)", () => {
  it('holds back every client of the tenant once an answer says the quota is spent, without spending requests', async () => {
    const reset = String(Math.ceil(Date.now() / 1000) + 30);
    const tenant = await fakeTenant({
      api: () =>
        auth0Error(429, {
          'x-ratelimit-limit': '2',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': reset,
        }),
    });
    const counted: string[] = [];
    const first = createManagementApi({
      domain: 'tenant.example',
      clientId: 'sync',
      clientSecret: 's',
      baseUrl: tenant.url,
      onCall: (operation, status) => counted.push(`${operation} ${status}`),
    });
    await expect(first.users.get('auth0|a')).rejects.toMatchObject({ status: 429 });
    // Another function's client of the same tenant, with its own credentials: no request is sent.
    const second = client(tenant, 2_000);
    const error = await second.users
      .update('auth0|a', { app_metadata: { kyc_status: 'approved' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementApiError);
    expect(error).toMatchObject({ status: 429, operation: 'users.update' });
    expect((error as ManagementApiError).retryAfterMs).toBeGreaterThan(25_000);
    expect(tenant.apiRequests).toHaveLength(1);
    expect(counted).toEqual(['users.get 429']);
  });

  it('records a spent quota until the reset an answer names, from a 429 or from the last request taken', () => {
    const quota = new TenantQuota();
    const now = Date.parse('2026-11-27T03:00:00.000Z');
    const headers = (remaining: number, resetInSeconds: number) =>
      new Headers({
        'x-ratelimit-limit': '2',
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': String(now / 1000 + resetInSeconds),
      });
    quota.observe(200, headers(1, 1), now);
    expect(quota.waitMs(now)).toBe(0);
    expect(quota).toMatchObject({ limit: 2, remaining: 1 });
    quota.observe(200, headers(0, 1), now);
    expect(quota.waitMs(now)).toBe(1_000);
    expect(quota.waitMs(now + 1_000)).toBe(0);
    quota.observe(429, headers(0, 20), now);
    expect(quota.waitMs(now + 5_000)).toBe(15_000);
    // An earlier answer's shorter reset does not shorten a longer wait.
    quota.observe(200, headers(0, 2), now);
    expect(quota.waitMs(now)).toBe(20_000);
    // A 429 that names no reset leaves the wait to the caller's backoff.
    const bare = new TenantQuota();
    bare.observe(429, new Headers(), now);
    expect(bare.waitMs(now)).toBe(0);
  });
});

describe('Auth0UserDirectory over the client: bounded, logged retries', () => {
  const warnings = () => {
    const spy = vi.spyOn(logger, 'warn');
    return () =>
      spy.mock.calls
        .filter(([message]) => message === 'auth0 call failed')
        .map(([, details]) => details as { status?: number; attempt: number; willRetry: boolean });
  };

  it('waits out a 429 with Retry-After, then succeeds', async () => {
    const tenant = await fakeTenant({
      api: (_request, seen) => (seen.length === 1 ? auth0Error(429, { 'retry-after': '1' }) : ok()),
    });
    const logged = warnings();
    const started = Date.now();
    const found = await new Auth0UserDirectory(client(tenant), fastPolicy).get('auth0|abc');
    expect(found?.userId).toBe('auth0|abc');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(tenant.apiRequests).toHaveLength(2);
    expect(logged()).toEqual([
      expect.objectContaining({ operation: 'users.get', status: 429, attempt: 1, willRetry: true }),
    ]);
  });

  it('gives up on a tenant that answers 503 forever after the bounded attempts, one log line each', async () => {
    const tenant = await fakeTenant({ api: () => auth0Error(503) });
    const logged = warnings();
    const error = await new Auth0UserDirectory(client(tenant), fastPolicy)
      .findByEmail('ada@helix-labs.example')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectoryUnavailableError);
    expect(error).toMatchObject({ statusCode: 503, attempts: 3 });
    expect(isPermanentDirectoryError(error)).toBe(false);
    // No second retry layer underneath: one request per attempt.
    expect(tenant.apiRequests).toHaveLength(3);
    expect(logged().map((line) => [line.status, line.willRetry])).toEqual([
      [503, true],
      [503, true],
      [503, false],
    ]);
  });

  it('retries a rate-limited token request like a rate-limited call', async () => {
    const tenant = await fakeTenant({
      api: () => ok(),
      token: (seen) => (seen.length === 1 ? auth0Error(429, { 'retry-after': '0' }) : tokenReply()(seen)),
    });
    expect((await new Auth0UserDirectory(client(tenant), fastPolicy).get('auth0|abc'))?.userId).toBe(
      'auth0|abc',
    );
    expect(tenant.tokenRequests).toHaveLength(2);
  });

  it('treats a hanging tenant as unavailable once the attempts are used', async () => {
    const tenant = await fakeTenant({ api: () => 'hang' });
    const policy: RetryPolicy = {
      maxAttempts: 2,
      maxElapsedMs: 3_000,
      requestTimeoutMs: 500,
      baseDelayMs: 10,
    };
    const error = await new Auth0UserDirectory(client(tenant), policy)
      .get('auth0|abc')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectoryUnavailableError);
    expect((error as DirectoryUnavailableError).cause).toBeInstanceOf(ManagementTimeoutError);
    expect(tenant.apiRequests).toHaveLength(2);
  });

  it('maps the 409 answering a create retried after a lost answer to UserAlreadyExistsError', async () => {
    const tenant = await fakeTenant({
      api: (_request, seen) => (seen.length === 1 ? auth0Error(503) : auth0Error(409)),
    });
    await expect(
      new Auth0UserDirectory(client(tenant), fastPolicy).create({
        email: 'ada@helix-labs.example',
        name: 'Ada',
        password: 'p'.repeat(24),
        appMetadata: { role: 'user' },
      }),
    ).rejects.toBeInstanceOf(UserAlreadyExistsError);
    expect(tenant.apiRequests.map((request) => request.method)).toEqual(['POST', 'POST']);
  });

  it.each([
    [400, true],
    // Our application lacks a scope: fixed by provisioning, after which the event must still apply.
    [403, false],
  ])('neither retries nor hides a %i refusal (permanent for the event: %s)', async (status, permanent) => {
    const tenant = await fakeTenant({ api: () => auth0Error(status) });
    const error = await new Auth0UserDirectory(client(tenant), fastPolicy)
      .updateAppMetadata('auth0|abc', { kyc_status: 'approved' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementApiError);
    expect(isPermanentDirectoryError(error)).toBe(permanent);
    expect(tenant.apiRequests).toHaveLength(1);
  });

  it('passes on a refused connection as it is, without retrying', async () => {
    const port = await freePort();
    const api = createManagementApi({
      domain: 'tenant.example',
      clientId: 'id',
      clientSecret: 's3cret',
      baseUrl: `http://127.0.0.1:${port}`,
    });
    const error = await new Auth0UserDirectory(api, fastPolicy).get('auth0|abc').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(DirectoryUnavailableError);
    expect(String(error)).toMatch(/oauth\.token request failed/);
    expect(isPermanentDirectoryError(error)).toBe(false);
  });
});
