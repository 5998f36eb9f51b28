import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

// Keys that sign access tokens the way the identity provider does, for unit tests that verify
// tokens against a JWKS they serve themselves.

export interface SigningKey {
  kid: string;
  /** The public key as the issuer's JWKS lists it. */
  jwk: JWK;
  sign(payload: JWTPayload): Promise<string>;
}

export async function signingKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return {
    kid,
    jwk,
    sign: (payload) => new SignJWT(payload).setProtectedHeader({ alg, kid, typ: 'JWT' }).sign(privateKey),
  };
}

/** `iat` now and `exp` in an hour, as a freshly issued access token has. */
export function freshTimes(): { iat: number; exp: number } {
  const iat = Math.floor(Date.now() / 1000);
  return { iat, exp: iat + 3600 };
}
