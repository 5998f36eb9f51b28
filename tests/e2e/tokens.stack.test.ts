import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import { createTestUser, type TestUser } from '#tests/helpers/tokens.ts';

// What an attacker can try with tokens, against the real gateway and identity provider: tokens are
// minted here with the identity provider's own signing key, changing one thing at a time, so each
// rejection is due to exactly the property the test names.

const stack = inject('stack');
const stateDir = inject('stackStateDir');
let user: TestUser;
let signingKey: CryptoKey;
let kid: string;
let publicJwk: JWK;

const me = (token: string) => fetch(`${stack.web}/api/me`, { headers: { authorization: `Bearer ${token}` } });
const now = () => Math.floor(Date.now() / 1000);

function claims(overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: stack.idp.issuer,
    aud: stack.idp.audience,
    sub: user.userId,
    azp: stack.idp.spaClientId,
    scope: 'openid profile email',
    iat: now(),
    exp: now() + 300,
    [`${stack.idp.claimsNamespace}role`]: 'user',
    ...overrides,
  };
}

const sign = (payload: JWTPayload, key: CryptoKey = signingKey, header: Record<string, unknown> = {}) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT', ...header }).sign(key);

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  user = await createTestUser(stack);
  const jwks = JSON.parse(await readFile(join(stateDir, 'idp', 'jwks.json'), 'utf8')) as { keys: JWK[] };
  const jwk = jwks.keys[0];
  if (!jwk?.kid) throw new Error('the identity provider has no signing key');
  kid = jwk.kid;
  signingKey = (await importJWK(jwk, 'RS256')) as CryptoKey;
  publicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e };
});

describe('accounts the identity provider lets in (ADR 0074)', () => {
  it('refuses a sign-in to an account registration did not create (a social sign-up has no app_metadata)', async () => {
    await expect(createTestUser(stack, {})).rejects.toThrow(
      /password grant for .* failed: 403 .*"access_denied".*not created through registration/,
    );
  });
});

describe('the JWT authorizer on user routes', () => {
  it('accepts an access token minted with the real key (the control case)', async () => {
    expect((await me(await sign(claims()))).status).toBe(200);
  });

  it('accepts the access token the identity provider issues', async () => {
    expect((await me(user.token)).status).toBe(200);
  });

  it('rejects an unsigned token (alg none)', async () => {
    const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims())}.`;
    expect((await me(token)).status).toBe(401);
  });

  it('rejects HS256 signed with the public key as the HMAC secret (algorithm confusion)', async () => {
    const header = base64url({ alg: 'HS256', typ: 'JWT', kid });
    const payload = base64url(claims());
    for (const secret of [JSON.stringify(publicJwk), publicJwk.n ?? '']) {
      const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
      expect((await me(`${header}.${payload}.${signature}`)).status).toBe(401);
    }
  });

  it('rejects a token signed by another key under the same key id', async () => {
    const other = await generateKeyPair('RS256');
    expect(await me(await sign(claims(), other.privateKey))).toHaveProperty('status', 401);
  });

  it('rejects a wrong issuer, and the right issuer without its trailing slash', async () => {
    expect((await me(await sign(claims({ iss: 'https://evil.example/' })))).status).toBe(401);
    expect((await me(await sign(claims({ iss: stack.idp.issuer.replace(/\/$/, '') })))).status).toBe(401);
  });

  it('rejects a wrong audience, and an ID token (audience = the SPA client)', async () => {
    expect((await me(await sign(claims({ aud: 'https://other-api.example' })))).status).toBe(401);
    expect((await me(await sign(claims({ aud: stack.idp.spaClientId, nonce: 'n' })))).status).toBe(401);
  });

  it('rejects an ID token issued by the identity provider', async () => {
    const response = await fetch(`${stack.idp.issuer}oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        username: user.email,
        password: user.password,
        audience: stack.idp.audience,
        scope: 'openid profile email',
        client_id: stack.idp.testClientId,
        client_secret: stack.idp.testClientSecret,
      }),
    });
    const { id_token: idToken } = (await response.json()) as { id_token: string };
    expect(idToken).toBeTruthy();
    expect((await me(idToken)).status).toBe(401);
  });

  it('rejects a token expired more than 60 s ago', async () => {
    expect((await me(await sign(claims({ iat: now() - 600, exp: now() - 61 })))).status).toBe(401);
  });

  it('rejects a token that is not valid yet (nbf in the future)', async () => {
    expect((await me(await sign(claims({ nbf: now() + 300 })))).status).toBe(401);
  });
});

describe('authorization after authentication', () => {
  it('refuses an admin route to a user token, with 403', async () => {
    const response = await fetch(`${stack.web}/api/admin/verifications?status=pending`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { type: string }).type).toBe(problemTypes.adminRequired);
  });

  it('rejects a token that grants itself the admin role without the identity provider signature', async () => {
    const forged = await sign(
      claims({ [`${stack.idp.claimsNamespace}role`]: 'admin' }),
      (await generateKeyPair('RS256')).privateKey,
    );
    const response = await fetch(`${stack.web}/api/admin/verifications?status=pending`, {
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.status).toBe(401);
  });
});
