import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, type JWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionRunner } from '#local/idp/action-runner.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { UserStore } from '#local/idp/user-store.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import {
  managementToken,
  passwordGrant,
  postToken,
  TEST_AUDIENCE,
  TEST_CLIENTS,
  TEST_NAMESPACE,
  TEST_USER,
  testIdpOptions,
} from '#tests/helpers/idp.ts';

let idp: RunningIdp;

beforeAll(async () => {
  idp = await startIdp(testIdpOptions({ port: await freePort() }));
});

afterAll(async () => {
  await idp?.close();
});

const remoteJwks = () => createRemoteJWKSet(new URL(`${idp.url}/.well-known/jwks.json`));

describe('resource-owner password grant (test client)', () => {
  it('returns tokens that verify against the JWKS and carry the namespaced claims', async () => {
    const { status, body } = await passwordGrant(idp.url, TEST_USER.email.toUpperCase(), TEST_USER.password);
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const { payload, protectedHeader } = await jwtVerify(body.access_token as string, remoteJwks(), {
      issuer: idp.issuer,
      audience: TEST_AUDIENCE,
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload.sub).toMatch(/^auth0\|[0-9a-f]{24}$/);
    expect(payload).toMatchObject({
      azp: TEST_CLIENTS.test.clientId,
      [`${TEST_NAMESPACE}role`]: 'user',
      [`${TEST_NAMESPACE}kyc_status`]: 'not_started',
      [`${TEST_NAMESPACE}organization_type`]: 'bank',
    });
    const id = await jwtVerify(body.id_token as string, remoteJwks(), {
      issuer: idp.issuer,
      audience: TEST_CLIENTS.test.clientId,
    });
    expect(id.payload).toMatchObject({ email: TEST_USER.email, [`${TEST_NAMESPACE}role`]: 'user' });
    expect(body.refresh_token).toBeTruthy();

    // The refresh token works for the test client and keeps the claims.
    const refreshed = await postToken(idp.url, {
      grant_type: 'refresh_token',
      refresh_token: body.refresh_token as string,
      client_id: TEST_CLIENTS.test.clientId,
      client_secret: TEST_CLIENTS.test.clientSecret,
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token as string)[`${TEST_NAMESPACE}role`]).toBe('user');
  });

  it('accepts the password-realm grant and form bodies, and omits id/refresh tokens when not asked', async () => {
    const res = await fetch(`${idp.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
        realm: 'Username-Password-Authentication',
        username: TEST_USER.email,
        password: TEST_USER.password,
        audience: TEST_AUDIENCE,
        scope: 'email',
        client_id: TEST_CLIENTS.test.clientId,
        client_secret: TEST_CLIENTS.test.clientSecret,
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.access_token).toBeTruthy();
    expect(body.id_token).toBeUndefined();
    expect(body.refresh_token).toBeUndefined();
  });

  it('answers a wrong password with 403 invalid_grant like Auth0', async () => {
    const { status, body } = await passwordGrant(idp.url, TEST_USER.email, 'not-the-password');
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'invalid_grant', error_description: 'Wrong email or password.' });
  });

  it('does not allow the SPA client to use the password grant', async () => {
    const { status, body } = await postToken(idp.url, {
      grant_type: 'password',
      username: TEST_USER.email,
      password: TEST_USER.password,
      audience: TEST_AUDIENCE,
      client_id: TEST_CLIENTS.spa,
    });
    expect(status).toBe(403);
    expect(body.error).toBe('unauthorized_client');
    expect(body.access_token).toBeUndefined();
  });
});

describe('client_credentials (M2M client)', () => {
  it('issues an RS256 JWT for <issuer>api/v2/ with every granted scope when none is requested', async () => {
    const token = await managementToken(idp.url);
    const { payload } = await jwtVerify(token, remoteJwks(), {
      issuer: idp.issuer,
      audience: `${idp.issuer}api/v2/`,
    });
    expect(String(payload.scope).split(' ').sort()).toEqual(
      [
        'create:user_tickets',
        'create:users',
        'delete:users',
        'read:users',
        'update:users',
        'update:users_app_metadata',
        // Organizations (ADR 0081).
        'create:organizations',
        'read:organizations',
        'update:organizations',
        'delete:organizations',
        'create:organization_members',
        'read:organization_members',
        'delete:organization_members',
        'create:organization_member_roles',
        'read:organization_member_roles',
        'delete:organization_member_roles',
        'create:organization_invitations',
        'read:organization_invitations',
        'delete:organization_invitations',
        'create:roles',
        'read:roles',
      ].sort(),
    );
    expect(payload.sub).toBe(`${TEST_CLIENTS.m2m.clientId}@clients`);
  });

  it('grants only the requested scope and accepts HTTP Basic client authentication', async () => {
    const res = await fetch(`${idp.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${TEST_CLIENTS.m2m.clientId}:${TEST_CLIENTS.m2m.clientSecret}`).toString('base64')}`,
      },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        audience: `${idp.issuer}api/v2/`,
        scope: 'read:users',
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string };
    expect(decodeJwt(body.access_token).scope).toBe('read:users');
  });

  it('rejects a wrong client secret', async () => {
    const { status } = await postToken(idp.url, {
      grant_type: 'client_credentials',
      audience: `${idp.issuer}api/v2/`,
      client_id: TEST_CLIENTS.m2m.clientId,
      client_secret: 'wrong',
    });
    expect(status).toBe(401);
  });
});

describe('authorization endpoint', () => {
  it('requires PKCE for the SPA client', async () => {
    const params = new URLSearchParams({
      client_id: TEST_CLIENTS.spa,
      response_type: 'code',
      redirect_uri: 'http://localhost:5173/callback',
      scope: 'openid',
      state: 'abc',
    });
    const res = await fetch(`${idp.url}/authorize?${params}`, { redirect: 'manual' });
    const location = new URL(res.headers.get('location') ?? '', idp.url);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('publishes discovery with Auth0 paths', async () => {
    const res = await fetch(`${idp.url}/.well-known/openid-configuration`);
    const body = (await res.json()) as Record<string, string>;
    expect(body).toMatchObject({
      issuer: idp.issuer,
      authorization_endpoint: `${idp.issuer}authorize`,
      token_endpoint: `${idp.issuer}oauth/token`,
      jwks_uri: `${idp.issuer}.well-known/jwks.json`,
      end_session_endpoint: `${idp.issuer}v2/logout`,
      userinfo_endpoint: `${idp.issuer}userinfo`,
    });
  });
});

describe('restart with the same dataDir', () => {
  it('keeps users and the signing key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'idp-restart-'));
    const port = await freePort();
    const first = await startIdp(testIdpOptions({ port, dataDir }));
    let oldToken: string;
    let firstKeys: { keys: JWK[] };
    try {
      const mgmt = await managementToken(first.url);
      const created = await fetch(`${first.url}/api/v2/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mgmt}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'persisted@example.com',
          password: 'Persisted-Pass-1',
          connection: 'Username-Password-Authentication',
          app_metadata: { role: 'admin' },
        }),
      });
      expect(created.status).toBe(201);
      const grant = await passwordGrant(first.url, 'persisted@example.com', 'Persisted-Pass-1');
      oldToken = grant.body.access_token as string;
      firstKeys = (await (await fetch(`${first.url}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
    } finally {
      await first.close();
    }

    const second = await startIdp(testIdpOptions({ port, dataDir }));
    try {
      const secondKeys = (await (await fetch(`${second.url}/.well-known/jwks.json`)).json()) as {
        keys: JWK[];
      };
      expect(secondKeys.keys.map((k) => k.kid)).toEqual(firstKeys.keys.map((k) => k.kid));
      const { payload } = await jwtVerify(oldToken, createLocalJWKSet(secondKeys), {
        issuer: second.issuer,
        audience: TEST_AUDIENCE,
      });
      expect(payload[`${TEST_NAMESPACE}role`]).toBe('admin');
      const again = await passwordGrant(second.url, 'persisted@example.com', 'Persisted-Pass-1');
      expect(again.status).toBe(200);
      expect(decodeJwt(again.body.access_token as string).sub).toBe(payload.sub);
    } finally {
      await second.close();
    }
  });
});

describe('post-login Action runner', () => {
  it('runs the real Action file and maps app_metadata to namespaced claims', async () => {
    const users = new UserStore(mkdtempSync(join(tmpdir(), 'idp-action-')));
    const user = await users.create({
      email: 'action@example.com',
      password: 'Action-Pass-1',
      appMetadata: { role: 'user', kyc_status: 'approved', organization_type: 'ngo', other: 'x' },
    });
    const result = await new ActionRunner({ CLAIMS_NAMESPACE: TEST_NAMESPACE }).run({
      user,
      client: { client_id: 'c', name: 'c' },
      protocol: 'oidc-basic-profile',
      requestedScopes: ['openid'],
    });
    const expected = {
      [`${TEST_NAMESPACE}role`]: 'user',
      [`${TEST_NAMESPACE}kyc_status`]: 'approved',
      [`${TEST_NAMESPACE}organization_type`]: 'ngo',
    };
    expect(result.idTokenClaims).toEqual(expected);
    // The access token also says whether the email is verified (a new user's is not).
    expect(result.accessTokenClaims).toEqual({
      ...expected,
      [`${TEST_NAMESPACE}email_verified`]: false,
      // The account's address and name (the idp names a user without one after the address).
      [`${TEST_NAMESPACE}email`]: 'action@example.com',
      [`${TEST_NAMESPACE}name`]: 'action@example.com',
    });
    expect(result.denied).toBeUndefined();
  });

  it('reports api.access.deny and records api.multifactor.enable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idp-action-'));
    const file = join(dir, 'deny.cjs');
    writeFileSync(
      file,
      `exports.onExecutePostLogin = async (event, api) => {
        api.multifactor.enable('any');
        if (event.user.app_metadata.blocked_by_action) api.access.deny('Not today');
      };`,
    );
    const users = new UserStore(dir);
    const user = await users.create({
      email: 'deny@example.com',
      password: 'Deny-Pass-1',
      appMetadata: { blocked_by_action: true },
    });
    const runner = new ActionRunner({}, file);
    const result = await runner.run({
      user,
      client: { client_id: 'c', name: 'c' },
      protocol: 'oauth2-refresh-token',
      requestedScopes: [],
    });
    expect(result.denied).toBe('Not today');
    expect(result.multifactor).toEqual([{ provider: 'any', options: undefined }]);
    expect(runner.multifactorLog).toEqual([{ user_id: user.user_id, provider: 'any' }]);
  });
});

describe('revocation', () => {
  it('revokes a refresh token sent as JSON to /oauth/revoke', async () => {
    const grant = await passwordGrant(idp.url, TEST_USER.email, TEST_USER.password);
    const refreshToken = grant.body.refresh_token as string;
    const res = await fetch(`${idp.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: TEST_CLIENTS.test.clientId,
        client_secret: TEST_CLIENTS.test.clientSecret,
        token: refreshToken,
      }),
    });
    expect(res.status).toBe(200);
    const after = await postToken(idp.url, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: TEST_CLIENTS.test.clientId,
      client_secret: TEST_CLIENTS.test.clientSecret,
    });
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
  });
});
