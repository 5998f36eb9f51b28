import { describe, expect, it } from 'vitest';
import { ActionRunner, type TransactionProtocol } from '#local/idp/action-runner.ts';
import type { StoredUser } from '#local/idp/user-store.ts';

// The post-login Action that provisioning deploys to Auth0 (lambdas/auth0-actions/post-login.cjs),
// run with the same runner the local identity provider uses.

const NAMESPACE = 'https://platform.example/';

function user(appMetadata: Record<string, unknown>, emailVerified = true): StoredUser {
  return {
    user_id: 'auth0|action-test',
    email: 'person@example.com',
    email_verified: emailVerified,
    name: 'Person',
    nickname: 'person',
    picture: '',
    password_hash: 'unused',
    app_metadata: appMetadata,
    user_metadata: {},
    blocked: false,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    logins_count: 1,
  };
}

function login(
  appMetadata: Record<string, unknown>,
  protocol: TransactionProtocol = 'oidc-basic-profile',
  emailVerified = true,
) {
  return new ActionRunner({ CLAIMS_NAMESPACE: NAMESPACE }).run({
    user: user(appMetadata, emailVerified),
    client: { client_id: 'spa', name: 'SPA' },
    protocol,
    requestedScopes: ['openid', 'profile', 'email', 'offline_access'],
    audience: 'https://api.platform.example',
  });
}

describe('the post-login Action', () => {
  it('puts role, KYC status and organization type from app_metadata into namespaced claims on both tokens', async () => {
    const result = await login({
      role: 'user',
      kyc_status: 'approved',
      organization_type: 'defense',
      kyc_updated_at: '2025-01-02T00:00:00.000Z',
    });
    const expected = {
      [`${NAMESPACE}role`]: 'user',
      [`${NAMESPACE}kyc_status`]: 'approved',
      [`${NAMESPACE}organization_type`]: 'defense',
    };
    expect(result.idTokenClaims).toEqual(expected);
    expect(result.accessTokenClaims).toEqual({
      ...expected,
      [`${NAMESPACE}email_verified`]: true,
      [`${NAMESPACE}email`]: 'person@example.com',
      [`${NAMESPACE}name`]: 'Person',
    });
    expect(result.denied).toBeUndefined();
  });

  it.each([
    ['login', 'oidc-basic-profile', false],
    ['login', 'oidc-basic-profile', true],
    ['refresh-token exchange', 'oauth2-refresh-token', false],
    ['refresh-token exchange', 'oauth2-refresh-token', true],
  ] as const)(
    'tells the API on every %s whether the email is verified (%s)',
    async (_when, protocol, verified) => {
      const result = await login({ role: 'user' }, protocol, verified);
      expect(result.accessTokenClaims[`${NAMESPACE}email_verified`]).toBe(verified);
      // The ID token already has the standard `email_verified` claim (email scope).
      expect(result.idTokenClaims).not.toHaveProperty(`${NAMESPACE}email_verified`);
    },
  );

  it('requires multi-factor authentication for an admin, with no remembered browser', async () => {
    const result = await login({ role: 'admin', kyc_status: 'approved', organization_type: 'commercial' });
    expect(result.multifactor).toEqual([{ provider: 'any', options: { allowRememberBrowser: false } }]);
    expect(result.accessTokenClaims[`${NAMESPACE}role`]).toBe('admin');
  });

  it('does not require multi-factor authentication for a user', async () => {
    const result = await login({ role: 'user', kyc_status: 'pending', organization_type: 'commercial' });
    expect(result.multifactor).toEqual([]);
  });

  it('does not ask for a second factor an admin cannot give during a refresh-token exchange', async () => {
    const result = await login({ role: 'admin' }, 'oauth2-refresh-token');
    expect(result.multifactor).toEqual([]);
    expect(result.accessTokenClaims[`${NAMESPACE}role`]).toBe('admin');
  });

  it('gives no claim for an app_metadata key that is missing or null', async () => {
    const result = await login({ kyc_status: null });
    expect(result.idTokenClaims).toEqual({});
    expect(result.accessTokenClaims).toEqual({
      [`${NAMESPACE}email_verified`]: true,
      [`${NAMESPACE}email`]: 'person@example.com',
      [`${NAMESPACE}name`]: 'Person',
    });
    expect(result.multifactor).toEqual([]);
  });

  it('denies the login when the tenant lacks the CLAIMS_NAMESPACE secret', async () => {
    const result = await new ActionRunner({}).run({
      user: user({ role: 'admin' }),
      client: { client_id: 'spa', name: 'SPA' },
      protocol: 'oidc-basic-profile',
      requestedScopes: ['openid'],
    });
    expect(result.denied).toMatch(/CLAIMS_NAMESPACE/);
    expect(result.accessTokenClaims).toEqual({});
  });

  it("adds nothing and asks nothing for another stage's API in the same tenant, and serves its own", async () => {
    const stage = (audience: string | undefined) =>
      new ActionRunner({ CLAIMS_NAMESPACE: NAMESPACE, AUDIENCE: 'https://api.prod.example' }).run({
        user: user({ role: 'admin', kyc_status: 'approved', organization_type: 'defense' }),
        client: { client_id: 'dev-spa', name: 'Platform dev web' },
        protocol: 'oidc-basic-profile',
        requestedScopes: ['openid', 'profile', 'email', 'offline_access'],
        audience,
      });
    // The dev stage's login, run through the prod stage's Action: the dev Action decides alone.
    const other = await stage('https://api.dev.example');
    expect(other).toEqual({ idTokenClaims: {}, accessTokenClaims: {}, multifactor: [] });
    const own = await stage('https://api.prod.example');
    expect(own.accessTokenClaims[`${NAMESPACE}role`]).toBe('admin');
    expect(own.idTokenClaims[`${NAMESPACE}kyc_status`]).toBe('approved');
    expect(own.multifactor).toHaveLength(1);
  });
});
