import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import type { JwtClaimValue } from '#lambdas/http/api-gateway.ts';

// What API Gateway's JWT authorizer checks on an HTTP API route: a bearer token signed with an
// RSA key from the issuer's JWKS (matching `kid`), `iss`, `aud`, `exp`, `nbf`, `iat`.
// Clock skew allowance: 30 s (docs/design.md section 3 allows at most 60 s).

export interface AuthorizerConfig {
  issuer: string;
  audience: string;
  jwksUri: string;
}

export type AuthorizerResult =
  | { ok: true; claims: Record<string, JwtClaimValue>; scopes: string[] | null }
  | { ok: false; reason: string };

export const clockToleranceSeconds = 30;

export function createJwtAuthorizer(config: AuthorizerConfig) {
  const jwks = createRemoteJWKSet(new URL(config.jwksUri), { cooldownDuration: 1_000 });
  return async (authorization: string | undefined): Promise<AuthorizerResult> => {
    const match = /^Bearer ([^\s]+)$/i.exec(authorization?.trim() ?? '');
    const token = match?.[1] ?? authorization?.trim();
    if (!token) return { ok: false, reason: 'missing token' };
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ['RS256', 'RS384', 'RS512'],
        clockTolerance: clockToleranceSeconds,
        requiredClaims: ['exp', 'iat'],
      });
      if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + clockToleranceSeconds) {
        return { ok: false, reason: 'token issued in the future' };
      }
      const scope = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : null;
      return { ok: true, claims: toGatewayClaims(payload), scopes: scope };
    } catch (error) {
      return { ok: false, reason: error instanceof errors.JOSEError ? error.code : String(error) };
    }
  };
}

/**
 * HTTP APIs hand claims to Lambda as strings: numbers and booleans stringified, arrays as
 * `[a b]`, objects as JSON. Handlers must not rely on typed claim values.
 */
export function toGatewayClaims(payload: JWTPayload): Record<string, JwtClaimValue> {
  const claims: Record<string, JwtClaimValue> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (typeof value === 'string') claims[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') claims[name] = String(value);
    else if (Array.isArray(value)) claims[name] = `[${value.join(' ')}]`;
    else if (value !== null && value !== undefined) claims[name] = JSON.stringify(value);
  }
  return claims;
}
