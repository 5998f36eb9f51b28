import type { Role } from '#contracts/kyc.ts';
import type { HttpApiEvent } from './api-gateway.ts';
import { ForbiddenError, UnauthorizedError } from './errors.ts';
import { securityEvent } from './logger.ts';

// The caller of a `user` or `admin` route, from the claims API Gateway's JWT authorizer has
// already verified. The user id is always the token's `sub`, never anything from the body.

export interface Caller {
  userId: string;
  issuer: string;
  role: Role;
}

export function claimsNamespace(): string {
  const namespace = process.env.CLAIMS_NAMESPACE;
  if (!namespace) throw new Error('Missing required environment variable CLAIMS_NAMESPACE');
  return namespace;
}

export function callerFrom(event: HttpApiEvent): Caller {
  const claims = event.requestContext.authorizer?.jwt.claims;
  const sub = claims?.sub;
  const iss = claims?.iss;
  // Defence in depth: the authorizer should have refused such a request already.
  if (typeof sub !== 'string' || sub === '' || typeof iss !== 'string') {
    securityEvent('authentication_failed', { reason: 'no verified claims on a protected route' });
    throw new UnauthorizedError();
  }
  const role = claims?.[`${claimsNamespace()}role`] === 'admin' ? 'admin' : 'user';
  return { userId: sub, issuer: iss, role };
}

export function requireAdmin(caller: Caller): void {
  if (caller.role !== 'admin') {
    securityEvent('authorization_failed', {
      reason: 'admin route called without the admin role',
      userId: caller.userId,
    });
    throw new ForbiddenError('This action needs the admin role.');
  }
}

/** A body that names a user must name the caller (DESIGN section 3): otherwise 403, nothing written. */
export function requireSelf(caller: Caller, claimedUserId: string | undefined): void {
  if (claimedUserId !== undefined && claimedUserId !== caller.userId) {
    securityEvent('authorization_failed', {
      reason: 'body user_id differs from the token subject',
      userId: caller.userId,
    });
    throw new ForbiddenError('You can only act for your own account.');
  }
}
