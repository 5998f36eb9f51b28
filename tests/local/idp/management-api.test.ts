import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth0M2mKeys, auth0M2mScopes } from '#lambdas/grants.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { createManagementClient } from '#tests/helpers/auth0-management-client.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import {
  managementToken,
  passwordGrant,
  TEST_CLIENTS,
  TEST_M2M_CLIENTS,
  TEST_USER,
  testIdpOptions,
} from '#tests/helpers/idp.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';

let idp: RunningIdp;
let port: number;
let token: string;

beforeAll(async () => {
  port = await freePort();
  idp = await startIdp(testIdpOptions({ port }));
  token = await managementToken(idp.url);
});

afterAll(async () => {
  await idp?.close();
});

// The calls spend the tenant's quota (Self Service here) like any client's: a 429 is waited out.
async function api(method: string, path: string, body?: unknown, bearer: string | null = token) {
  const res = await managementFetch(`${idp.url}${path}`, {
    method,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

const userPath = (id: string) => `/api/v2/users/${encodeURIComponent(id)}`;

async function createUser(email: string, extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v2/users', {
    email,
    password: 'Initial-Pass-1',
    connection: 'Username-Password-Authentication',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body as { user_id: string };
}

describe('the auth0 management SDK through createManagementClient', () => {
  it('creates a user and patches its app_metadata via the local IdP', async () => {
    const client = createManagementClient({
      domain: `localhost:${port}`,
      clientId: TEST_CLIENTS.m2m.clientId,
      clientSecret: TEST_CLIENTS.m2m.clientSecret,
      baseUrl: idp.url,
    });
    const created = await client.users.create({
      email: 'sdk-user@example.com',
      password: 'Sdk-Password-1',
      connection: 'Username-Password-Authentication',
      name: 'SDK User',
      app_metadata: { role: 'user', kyc_status: 'not_started', organization_type: 'fintech' },
    });
    expect(created.user_id).toMatch(/^auth0\|[0-9a-f]{24}$/);
    expect(created.identities?.[0]).toMatchObject({
      connection: 'Username-Password-Authentication',
      provider: 'auth0',
      isSocial: false,
    });

    const updated = await client.users.update(created.user_id as string, {
      app_metadata: { kyc_status: 'approved' },
    });
    expect(updated.app_metadata).toEqual({
      role: 'user',
      kyc_status: 'approved',
      organization_type: 'fintech',
    });

    const fetched = await client.users.get(created.user_id as string);
    expect(fetched.app_metadata?.kyc_status).toBe('approved');

    // A duplicate create surfaces as a 409 ManagementError.
    await expect(
      client.users.create({
        email: 'SDK-USER@example.com',
        password: 'Sdk-Password-1',
        connection: 'Username-Password-Authentication',
      }),
    ).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe('creating users at once', () => {
  it('answers one 201 and 409s to concurrent creates of one address, and keeps one user', async () => {
    const email = `burst-${Date.now()}@example.com`;
    const body = { email, password: 'Initial-Pass-1', connection: 'Username-Password-Authentication' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => api('POST', '/api/v2/users', body)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const found = await api('GET', `/api/v2/users-by-email?email=${encodeURIComponent(email)}`);
    expect(found.body).toHaveLength(1);
  });
});

describe('Management API authorization', () => {
  it('rejects a request without a token (401)', async () => {
    const res = await api('GET', '/api/v2/users-by-email?email=a@example.com', undefined, null);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('rejects a token signed by another key (401)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ scope: 'read:users' })
      .setProtectedHeader({ alg: 'RS256', kid: (await exportJWK(publicKey)).n?.slice(0, 8) ?? 'x' })
      .setIssuer(idp.issuer)
      .setAudience(`${idp.issuer}api/v2/`)
      .setSubject(`${TEST_CLIENTS.m2m.clientId}@clients`)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const res = await api('GET', '/api/v2/users-by-email?email=a@example.com', undefined, foreign);
    expect(res.status).toBe(401);
  });

  it('rejects an access token for the product API (401)', async () => {
    const grant = await passwordGrant(idp.url, TEST_USER.email, TEST_USER.password);
    expect(grant.status).toBe(200);
    const res = await api(
      'GET',
      '/api/v2/users-by-email?email=a@example.com',
      undefined,
      grant.body.access_token ?? null,
    );
    expect(res.status).toBe(401);
  });

  it('rejects a token lacking the scope (403 insufficient_scope)', async () => {
    const readOnly = await managementToken(idp.url, 'read:users');
    const ok = await api('GET', `/api/v2/users-by-email?email=${TEST_USER.email}`, undefined, readOnly);
    expect(ok.status).toBe(200);
    const res = await api(
      'POST',
      '/api/v2/users',
      { email: 'x@example.com', password: 'Whatever-123', connection: 'Username-Password-Authentication' },
      readOnly,
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, errorCode: 'insufficient_scope' });
  });
});

describe("each function's M2M application (lambdas/grants.ts)", () => {
  /** Every Management API call the backend makes, with the scopes Auth0 accepts for it (any of). */
  const calls = [
    {
      name: 'create a user',
      scopes: ['create:users'],
      send: (bearer: string) =>
        api(
          'POST',
          '/api/v2/users',
          {
            email: `m2m-${Math.random().toString(36).slice(2)}@example.com`,
            password: 'Whatever-123',
            connection: 'Username-Password-Authentication',
          },
          bearer,
        ),
    },
    {
      name: 'read a user',
      scopes: ['read:users'],
      send: (bearer: string) =>
        api('GET', `/api/v2/users-by-email?email=${TEST_USER.email}`, undefined, bearer),
    },
    {
      name: "patch a user's app_metadata",
      scopes: ['update:users_app_metadata', 'update:users'],
      send: async (bearer: string) => {
        const [user] = (await api('GET', `/api/v2/users-by-email?email=${TEST_USER.email}`)).body;
        return api('PATCH', userPath(user.user_id), { app_metadata: { probe: 1 } }, bearer);
      },
    },
    {
      name: 'start a verification-email job',
      scopes: ['update:users'],
      send: async (bearer: string) => {
        const [user] = (await api('GET', `/api/v2/users-by-email?email=${TEST_USER.email}`)).body;
        return api('POST', '/api/v2/jobs/verification-email', { user_id: user.user_id }, bearer);
      },
    },
    {
      name: 'create a password-change ticket',
      scopes: ['create:user_tickets'],
      send: async (bearer: string) => {
        const [user] = (await api('GET', `/api/v2/users-by-email?email=${TEST_USER.email}`)).body;
        return api('POST', '/api/v2/tickets/password-change', { user_id: user.user_id }, bearer);
      },
    },
    {
      name: 'delete a user',
      scopes: ['delete:users'],
      send: async (bearer: string) => {
        const doomed = await createUser(`doomed-${Math.random().toString(36).slice(2)}@example.com`);
        return api('DELETE', userPath(doomed.user_id), undefined, bearer);
      },
    },
  ];

  it.each(auth0M2mKeys)(
    '%s gets a token with exactly its scopes, even when it asks for more',
    async (key) => {
      const greedy = await managementToken(
        idp.url,
        'read:users create:users delete:users update:users',
        TEST_M2M_CLIENTS[key],
      );
      const plain = await managementToken(idp.url, undefined, TEST_M2M_CLIENTS[key]);
      for (const token of [plain]) {
        expect(String(decodeJwt(token).scope).split(' ').sort()).toEqual([...auth0M2mScopes[key]].sort());
      }
      const granted = String(decodeJwt(greedy).scope ?? '')
        .split(' ')
        .filter(Boolean);
      expect(granted.every((scope) => (auth0M2mScopes[key] as readonly string[]).includes(scope))).toBe(true);
    },
  );

  it.each(auth0M2mKeys)(
    '%s may make only the calls its scopes allow (403 insufficient_scope otherwise)',
    async (key) => {
      const bearer = await managementToken(idp.url, undefined, TEST_M2M_CLIENTS[key]);
      const scopes: readonly string[] = auth0M2mScopes[key];
      for (const call of calls) {
        const res = await call.send(bearer);
        if (call.scopes.some((scope) => scopes.includes(scope))) {
          // Authorized (this IdP's mail relay is unreachable here, so the job itself may fail).
          expect([call.name, res.status === 401 || res.status === 403]).toEqual([call.name, false]);
        } else {
          expect([call.name, res.status, res.body?.errorCode]).toEqual([
            call.name,
            403,
            'insufficient_scope',
          ]);
        }
      }
    },
  );

  it("GET /api/me's credentials cannot create a user", async () => {
    const readUsers = await managementToken(idp.url, undefined, TEST_M2M_CLIENTS.auth0ReadUsers);
    const res = await api(
      'POST',
      '/api/v2/users',
      {
        email: 'intruder@example.com',
        password: 'Whatever-123',
        connection: 'Username-Password-Authentication',
      },
      readUsers,
    );
    expect(res).toMatchObject({ status: 403, body: { errorCode: 'insufficient_scope' } });
    expect((await api('GET', '/api/v2/users-by-email?email=intruder@example.com')).body).toEqual([]);
  });
});

describe('Management API users', () => {
  it('merges app_metadata top-level keys, replaces nested objects and deletes null keys', async () => {
    const user = await createUser('merge@example.com', {
      app_metadata: { role: 'user', kyc_status: 'not_started', profile: { a: 1, b: 2 }, keep: true },
      user_metadata: { locale: 'en' },
    });
    const res = await api('PATCH', userPath(user.user_id), {
      app_metadata: { kyc_status: 'pending', profile: { c: 3 }, keep: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.app_metadata).toEqual({ role: 'user', kyc_status: 'pending', profile: { c: 3 } });
    expect(res.body.user_metadata).toEqual({ locale: 'en' });
    const fetched = await api('GET', userPath(user.user_id));
    expect(fetched.body.app_metadata).toEqual({ role: 'user', kyc_status: 'pending', profile: { c: 3 } });
  });

  it('finds users by email case-insensitively', async () => {
    const user = await createUser('Case.Person@Example.com');
    const res = await api(
      'GET',
      `/api/v2/users-by-email?email=${encodeURIComponent('case.person@example.COM')}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].user_id).toBe(user.user_id);
    const none = await api('GET', '/api/v2/users-by-email?email=nobody@example.com');
    expect(none.body).toEqual([]);
  });

  it('answers 409 for a duplicate email', async () => {
    await createUser('dup@example.com');
    const res = await api('POST', '/api/v2/users', {
      email: 'DUP@example.com',
      password: 'Another-Pass-1',
      connection: 'Username-Password-Authentication',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, message: 'The user already exists.' });
  });

  it('rejects unknown fields and other connections with 400 invalid_body', async () => {
    const unknown = await api('POST', '/api/v2/users', {
      email: 'bad@example.com',
      password: 'Another-Pass-1',
      connection: 'Username-Password-Authentication',
      favourite_colour: 'blue',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errorCode).toBe('invalid_body');
    expect(unknown.body.message).toContain('favourite_colour');
    const connection = await api('POST', '/api/v2/users', {
      email: 'bad@example.com',
      password: 'Another-Pass-1',
      connection: 'google-oauth2',
    });
    expect(connection.status).toBe(400);
    expect(connection.body.message).toContain('connection');
  });

  it('deletes a user (204), after which it is 404 inexistent_user', async () => {
    const user = await createUser('delete-me@example.com');
    const del = await api('DELETE', userPath(user.user_id));
    expect(del.status).toBe(204);
    const get = await api('GET', userPath(user.user_id));
    expect(get.status).toBe(404);
    expect(get.body).toMatchObject({ statusCode: 404, errorCode: 'inexistent_user' });
  });

  it('blocks a user: the password grant then fails', async () => {
    // As registration creates it: the post-login Action lets no other account in.
    const user = await createUser('blocked@example.com', {
      app_metadata: { role: 'user', organization_type: 'commercial' },
    });
    expect((await passwordGrant(idp.url, 'blocked@example.com', 'Initial-Pass-1')).status).toBe(200);
    expect((await api('PATCH', userPath(user.user_id), { blocked: true })).status).toBe(200);
    const denied = await passwordGrant(idp.url, 'blocked@example.com', 'Initial-Pass-1');
    expect(denied.status).toBe(401);
    expect(denied.body.access_token).toBeUndefined();
  });
});
