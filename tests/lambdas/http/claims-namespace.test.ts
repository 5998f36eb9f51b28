import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiRoutes } from '#contracts/api.ts';
import { problemTypes } from '#contracts/problem.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { ActionRunner } from '#local/idp/action-runner.ts';
import type { StoredUser } from '#local/idp/user-store.ts';
import { httpApiEvent, lambdaContext, mockOriginSecret } from '#tests/fixtures/events/http-api-event.ts';
import { freshTimes, type SigningKey, signingKey } from '#tests/helpers/signing-keys.ts';

// A claims namespace configured without its trailing slash (`https://platform.test`): the
// post-login Action (the file Auth0 runs, run here as the local identity provider runs it) names
// its claims `https://platform.test/role`; the backend, given the same value, must read the same
// names, or nobody is an admin.

const NAMESPACE = 'https://platform.test';
const ISSUER = 'https://login.platform.test/';
const AUDIENCE = 'https://api.platform.test';

mockOriginSecret(mockClient(SecretsManagerClient));
let key: SigningKey;

beforeAll(async () => {
  key = await signingKey('idp-key');
  // The issuer's JWKS, which the handler fetches to verify the bearer token.
  vi.stubGlobal('fetch', async () => Response.json({ keys: [key.jwk] }));
  Object.assign(process.env, { AUTH0_ISSUER: ISSUER, AUTH0_AUDIENCE: AUDIENCE, CLAIMS_NAMESPACE: NAMESPACE });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

function storedUser(role: string): StoredUser {
  return {
    user_id: `auth0|${role}`,
    email: `${role}@example.com`,
    email_verified: true,
    name: role,
    nickname: role,
    picture: '',
    password_hash: 'unused',
    app_metadata: { role, kyc_status: 'approved', organization_type: 'bank' },
    user_metadata: {},
    blocked: false,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    logins_count: 1,
  };
}

/** An access token as the tenant issues it: the Action's claims for this user, signed. */
async function accessTokenFor(role: string): Promise<string> {
  const user = storedUser(role);
  const action = await new ActionRunner({ CLAIMS_NAMESPACE: NAMESPACE }).run({
    user,
    client: { client_id: 'spa', name: 'SPA' },
    protocol: 'oauth2-refresh-token',
    requestedScopes: ['openid', 'offline_access'],
    audience: AUDIENCE,
    // A session that signed in with its second factor just now: an admin's refresh needs one
    // younger than the session limit (ADR 0074).
    authentication: [
      { name: 'pwd', timestamp: new Date().toISOString() },
      { name: 'mfa', timestamp: new Date().toISOString() },
    ],
  });
  return key.sign({
    iss: ISSUER,
    sub: user.user_id,
    aud: AUDIENCE,
    ...freshTimes(),
    ...action.accessTokenClaims,
  });
}

const adminRoute = httpHandler({ route: apiRoutes.ListVerifications }, async () => ({
  status: 200,
  body: { ok: true },
}));

async function callAdminRoute(role: string) {
  const token = await accessTokenFor(role);
  const base = httpApiEvent({ routeKey: 'GET /api/admin/verifications', body: undefined });
  const result = await adminRoute(
    {
      ...base,
      headers: { ...base.headers, authorization: `Bearer ${token}` },
      requestContext: {
        ...base.requestContext,
        authorizer: { jwt: { claims: { sub: `auth0|${role}`, iss: ISSUER }, scopes: null } },
      },
    },
    lambdaContext,
  );
  return { status: result.statusCode, body: JSON.parse(result.body ?? 'null') };
}

describe('a claims namespace without its trailing slash', () => {
  it('still lets an admin into the admin routes', async () => {
    expect(await callAdminRoute('admin')).toEqual({ status: 200, body: { ok: true } });
  });

  it('still keeps a user out of them', async () => {
    expect(await callAdminRoute('user')).toMatchObject({
      status: 403,
      body: { type: problemTypes.adminRequired },
    });
  });
});
