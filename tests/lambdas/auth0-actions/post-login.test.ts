import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { organizationRoles } from '#contracts/organization.ts';
import { sessionMaximumSeconds } from '#contracts/session-lifetimes.ts';
import {
  ActionRunner,
  type AuthenticationMethod,
  type TransactionProtocol,
} from '#local/idp/action-runner.ts';
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
  authentication?: AuthenticationMethod[],
) {
  return new ActionRunner({ CLAIMS_NAMESPACE: NAMESPACE }).run({
    user: user(appMetadata, emailVerified),
    client: { client_id: 'spa', name: 'SPA' },
    protocol,
    requestedScopes: ['openid', 'profile', 'email', 'offline_access'],
    audience: 'https://api.platform.example',
    authentication,
  });
}

const action = createRequire(import.meta.url)('../../../lambdas/auth0-actions/post-login.cjs') as {
  ADMIN_MFA_MAX_AGE_SECONDS: number;
  ORGANIZATION_ROLES: string[];
  DENIED: { notRegistered: string; mfaTooOld: string };
};
/** What registration writes into app_metadata (register-organization.ts). */
const registered = { role: 'user', organization_type: 'commercial', kyc_status: 'not_started' };
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
/** A session whose password and second factor were given `n` minutes ago. */
const factorsGiven = (n: number): AuthenticationMethod[] => [
  { name: 'pwd', timestamp: minutesAgo(n) },
  { name: 'mfa', timestamp: minutesAgo(n) },
];

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
      const result = await login(registered, protocol, verified);
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

  it("renews an admin's tokens on a refresh-token exchange while the session's second factor is younger than the session's maximum, without asking for it", async () => {
    expect(action.ADMIN_MFA_MAX_AGE_SECONDS).toBe(sessionMaximumSeconds);
    const result = await login({ role: 'admin' }, 'oauth2-refresh-token', true, factorsGiven(59));
    expect(result.denied).toBeUndefined();
    expect(result.multifactor).toEqual([]);
    expect(result.accessTokenClaims[`${NAMESPACE}role`]).toBe('admin');
  });

  it.each([
    ['the second factor is older than the session may last', factorsGiven(61)],
    [
      'the session never gave a second factor (a login before a promotion to admin)',
      [{ name: 'pwd', timestamp: minutesAgo(1) }],
    ],
    ['Auth0 says nothing of the session', undefined],
  ])(
    "denies an admin's refresh-token exchange when %s: the admin signs in again, with the factor",
    async (_when, authentication) => {
      const result = await login({ role: 'admin' }, 'oauth2-refresh-token', true, authentication);
      expect(result.denied).toBe(action.DENIED.mfaTooOld);
      expect(result.multifactor).toEqual([]);
    },
  );

  it("judges the second factor's age at the exchange, just inside and just past the session's maximum", async () => {
    const given = (secondsAgo: number): AuthenticationMethod[] => [
      { name: 'mfa', timestamp: new Date(Date.now() - secondsAgo * 1000).toISOString() },
    ];
    const inside = await login(
      { role: 'admin' },
      'oauth2-refresh-token',
      true,
      given(sessionMaximumSeconds - 5),
    );
    expect(inside.denied).toBeUndefined();
    const past = await login(
      { role: 'admin' },
      'oauth2-refresh-token',
      true,
      given(sessionMaximumSeconds + 5),
    );
    expect(past.denied).toBe(action.DENIED.mfaTooOld);
  });

  it("does not judge a user's refresh-token exchange by second factors", async () => {
    const result = await login(registered, 'oauth2-refresh-token', true, undefined);
    expect(result.denied).toBeUndefined();
  });

  it.each([
    ['no app_metadata at all (a social or passwordless sign-up)', {}],
    ['a role but no organization type', { role: 'user' }],
    ['an empty organization type', { role: 'user', organization_type: ' ' }],
    ['an organization type but no role', { organization_type: 'commercial', kyc_status: 'approved' }],
    ['a role registration never gives', { role: 'reviewer', organization_type: 'commercial' }],
  ])('denies an account registration did not create: %s', async (_what, appMetadata) => {
    for (const protocol of ['oidc-basic-profile', 'oauth2-refresh-token', 'oauth2-password'] as const) {
      const result = await login(appMetadata, protocol);
      expect(result.denied, protocol).toBe(action.DENIED.notRegistered);
      expect(result.accessTokenClaims).toEqual({});
      expect(result.idTokenClaims).toEqual({});
    }
  });

  it('lets in an administrator an operator made, without an organization', async () => {
    const result = await login({ role: 'admin' });
    expect(result.denied).toBeUndefined();
    expect(result.multifactor).toHaveLength(1);
  });

  it('gives no claim for an app_metadata key that is missing or null', async () => {
    const result = await login({ role: 'user', organization_type: 'commercial', kyc_status: null });
    expect(result.idTokenClaims).toEqual({
      [`${NAMESPACE}role`]: 'user',
      [`${NAMESPACE}organization_type`]: 'commercial',
    });
    expect(result.accessTokenClaims).toEqual({
      [`${NAMESPACE}role`]: 'user',
      [`${NAMESPACE}organization_type`]: 'commercial',
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

  describe('a login through an organization (ADR 0083)', () => {
    const organization = {
      id: 'org_0123456789abcdef',
      name: 'helix-labs-0a1b2c3d',
      display_name: 'Helix Labs',
      metadata: {},
    };
    const orgLogin = (roles: string[] | undefined) =>
      new ActionRunner({ CLAIMS_NAMESPACE: NAMESPACE }).run({
        user: user(registered),
        client: { client_id: 'spa', name: 'SPA' },
        protocol: 'oidc-basic-profile',
        requestedScopes: ['openid'],
        audience: 'https://api.platform.example',
        organization,
        roles,
      });

    it("puts the member's organization roles, from event.authorization.roles, into org_roles on both tokens", async () => {
      const result = await orgLogin(['org_admin', 'some_tenant_role']);
      expect(result.denied).toBeUndefined();
      expect(result.accessTokenClaims[`${NAMESPACE}org_roles`]).toEqual(['org_admin']);
      expect(result.idTokenClaims[`${NAMESPACE}org_roles`]).toEqual(['org_admin']);
    });

    it('gives an empty org_roles to a member without a role, and none to a login without an organization', async () => {
      expect((await orgLogin([])).accessTokenClaims[`${NAMESPACE}org_roles`]).toEqual([]);
      expect((await orgLogin(undefined)).accessTokenClaims[`${NAMESPACE}org_roles`]).toEqual([]);
      const plain = await login(registered);
      expect(plain.accessTokenClaims).not.toHaveProperty(`${NAMESPACE}org_roles`);
      expect(plain.idTokenClaims).not.toHaveProperty(`${NAMESPACE}org_roles`);
    });

    it('names the same organization roles as the contract', () => {
      expect(action.ORGANIZATION_ROLES).toEqual([...organizationRoles]);
    });
  });
});
