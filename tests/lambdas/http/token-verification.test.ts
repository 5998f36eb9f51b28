import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiRoutes } from '#contracts/api.ts';
import { problemTypes } from '#contracts/problem.ts';
import type { HttpApiEvent } from '#lambdas/http/api-gateway.ts';
import { jwksCooldownMs } from '#lambdas/http/auth.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { httpApiEvent, lambdaContext, mockOriginSecret } from '#tests/fixtures/events/http-api-event.ts';
import { freshTimes, type SigningKey, signingKey } from '#tests/helpers/signing-keys.ts';

// The handlers' own check of the bearer token, behind API Gateway's authorizer (which has no
// algorithm setting): RS256 only, the issuer's keys, the caller from the verified
// token. The issuer's JWKS is served here, and every fetch of it is counted.

const AUDIENCE = 'https://api.platform.test';
const NAMESPACE = 'https://platform.test/';
const USER = 'auth0|user-1';

// Every request arrives through the edge (the wrapper checks that first).
mockOriginSecret(mockClient(SecretsManagerClient));

let server: Server;
let issuer: string;
let published: JWK[] = [];
let jwksFetches = 0;
let rsa: SigningKey;
let ec: SigningKey;
/** RSA keys for RS384 and RS512, published without `alg`: only the algorithm rule can refuse them. */
const otherRsa: Record<'RS384' | 'RS512', { kid: string; privateKey: CryptoKey; jwk: JWK }> = {} as never;

beforeAll(async () => {
  rsa = await signingKey('rsa-1');
  // Published next to the RSA key, so only the algorithm rule can refuse what it signs.
  ec = await signingKey('ec-1', 'ES256');
  for (const alg of ['RS384', 'RS512'] as const) {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const kid = `rsa-${alg}`;
    otherRsa[alg] = { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, use: 'sig' } };
  }
  published = [rsa.jwk, ec.jwk, otherRsa.RS384.jwk, otherRsa.RS512.jwk];
  server = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    jwksFetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  Object.assign(process.env, { AUTH0_ISSUER: issuer, AUTH0_AUDIENCE: AUDIENCE, CLAIMS_NAMESPACE: NAMESPACE });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  vi.useRealTimers();
});

const signWithOtherRsa = (alg: 'RS384' | 'RS512') =>
  new SignJWT(claims())
    .setProtectedHeader({ alg, kid: otherRsa[alg].kid, typ: 'JWT' })
    .sign(otherRsa[alg].privateKey);

const claims = (overrides: JWTPayload = {}): JWTPayload => ({
  iss: issuer,
  sub: USER,
  aud: AUDIENCE,
  ...freshTimes(),
  scope: 'openid profile email offline_access',
  [`${NAMESPACE}role`]: 'user',
  [`${NAMESPACE}email_verified`]: true,
  ...overrides,
});

/** The event API Gateway hands over after its authorizer accepted the token (claims as strings). */
function eventWith(token: string | undefined, authorizerSub: string | null = USER): HttpApiEvent {
  const base = httpApiEvent({ routeKey: 'GET /api/me/consents', body: undefined });
  return {
    ...base,
    headers: { ...base.headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    requestContext: {
      ...base.requestContext,
      ...(authorizerSub === null
        ? {}
        : { authorizer: { jwt: { claims: { sub: authorizerSub, iss: issuer }, scopes: null } } }),
    },
  };
}

const handle = vi.fn(async ({ caller }: { caller: { userId: string } }) => ({
  status: 200,
  body: { userId: caller.userId },
}));
const listMyConsents = httpHandler({ route: apiRoutes.ListMyConsents }, handle);

async function call(token: string | undefined, authorizerSub: string | null = USER) {
  handle.mockClear();
  const result = await listMyConsents(eventWith(token, authorizerSub), lambdaContext);
  return {
    status: result.statusCode,
    body: JSON.parse(result.body ?? 'null'),
    ran: handle.mock.calls.length,
  };
}

const refused = { status: 401, ran: 0, body: expect.objectContaining({ type: problemTypes.unauthorized }) };

describe('a user route checks the bearer token itself', () => {
  it("serves a caller whose RS256 token verifies, as the token's sub", async () => {
    expect(await call(await rsa.sign(claims()))).toMatchObject({
      status: 200,
      ran: 1,
      body: { userId: USER },
    });
  });

  it.each([
    [
      'HS256 (signed with a secret, naming the RSA key)',
      () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: rsa.kid, typ: 'JWT' })
          .sign(new TextEncoder().encode('a-secret-an-attacker-chose-32-bytes!')),
    ],
    ['alg none (unsigned)', async () => new UnsecuredJWT(claims()).encode()],
    ['ES256 (by a key the issuer publishes)', () => ec.sign(claims())],
    ['RS384 (by an RSA key the issuer publishes without alg)', () => signWithOtherRsa('RS384')],
    ['RS512 (by an RSA key the issuer publishes without alg)', () => signWithOtherRsa('RS512')],
    ['RS256 by a key the issuer never published', async () => (await signingKey('rsa-1')).sign(claims())],
    ['RS256 for another audience', () => rsa.sign(claims({ aud: 'https://other.example' }))],
    ['RS256 from another issuer', () => rsa.sign(claims({ iss: 'https://evil.example/' }))],
    ['RS256 expired two minutes ago', () => rsa.sign(claims({ exp: Math.floor(Date.now() / 1000) - 120 }))],
  ])('refuses a token with valid claims but %s: 401, the handler never runs', async (_name, token) => {
    expect(await call(await token())).toMatchObject(refused);
  });

  it('refuses a valid token whose sub is not the one the authorizer passed (a swapped header)', async () => {
    expect(await call(await rsa.sign(claims({ sub: 'auth0|someone-else' })))).toMatchObject(refused);
  });

  it('fails closed with 401 when the claims are there but the bearer token is not', async () => {
    expect(await call(undefined)).toMatchObject(refused);
  });

  it('fails closed with 401 when reached without claims, even with a valid token', async () => {
    expect(await call(await rsa.sign(claims()), null)).toMatchObject(refused);
  });

  it('refetches the JWKS for an unknown kid at most once per cooldown, and so picks up a rotated key', async () => {
    expect((await call(await rsa.sign(claims()))).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + jwksCooldownMs + 1_000 });
    const before = jwksFetches;

    const forged = await signingKey('forged');
    for (let i = 0; i < 10; i++) expect(await call(await forged.sign(claims()))).toMatchObject(refused);
    // The first unknown kid after the cooldown refetched; the other nine did not.
    expect(jwksFetches).toBe(before + 1);

    // The issuer rotates: the new key is not used until the cooldown has passed again.
    const rotated = await signingKey('rsa-2');
    published = [rsa.jwk, ec.jwk, rotated.jwk];
    expect(await call(await rotated.sign(claims()))).toMatchObject(refused);
    expect(jwksFetches).toBe(before + 1);
    vi.setSystemTime(Date.now() + jwksCooldownMs + 1_000);
    expect(await call(await rotated.sign(claims()))).toMatchObject({ status: 200, body: { userId: USER } });
    expect(jwksFetches).toBe(before + 2);
    for (let i = 0; i < 10; i++) expect(await call(await forged.sign(claims()))).toMatchObject(refused);
    expect(jwksFetches).toBe(before + 2);
  });
});
