import type { Caller } from '#lambdas/domain/caller.ts';
import type { HttpApiEvent, JwtClaimValue } from './api-gateway.ts';
import { AdminRoleRequiredError, UnauthorizedError } from './errors.ts';

// The caller of a `user` or `admin` route, from the claims API Gateway's JWT authorizer has
// already verified. The user id is always the token's `sub`, never anything from the body.

export type { Caller };

export function claimsNamespace(): string {
  const namespace = process.env.CLAIMS_NAMESPACE;
  if (!namespace) throw new Error('Missing required environment variable CLAIMS_NAMESPACE');
  return namespace;
}

/** API Gateway hands claims to Lambda as strings (`"true"`); tests and other callers may not. */
const isTrue = (value: JwtClaimValue | undefined) => value === true || value === 'true';

export function callerFrom(event: HttpApiEvent): Caller {
  const claims = event.requestContext.authorizer?.jwt.claims;
  const sub = claims?.sub;
  const iss = claims?.iss;
  // Defence in depth: the authorizer should have refused such a request already.
  if (typeof sub !== 'string' || sub === '' || typeof iss !== 'string') throw new UnauthorizedError();
  const namespace = claimsNamespace();
  return {
    userId: sub,
    issuer: iss,
    role: claims?.[`${namespace}role`] === 'admin' ? 'admin' : 'user',
    // A token minted before the Action added this claim counts as unverified until refreshed.
    emailVerified: isTrue(claims?.[`${namespace}email_verified`]),
  };
}

export function requireAdmin(caller: Caller): void {
  if (caller.role !== 'admin') throw new AdminRoleRequiredError();
}
