import type { Role } from '#contracts/kyc.ts';
import { EmailNotVerifiedError, NotOwnAccountError } from './errors.ts';

/**
 * The signed-in caller, from the access token API Gateway's JWT authorizer verified
 * (lambdas/http/auth.ts). The user id is always the token's `sub`, never anything from the body.
 */
export interface Caller {
  userId: string;
  issuer: string;
  role: Role;
  /** The namespaced `email_verified` claim the post-login Action adds (ADR 0021). */
  emailVerified: boolean;
}

/**
 * A body that names a user must name the caller (docs/design.md section 3): otherwise 403, nothing
 * written.
 */
export function requireSelf(caller: Caller, claimedUserId: string | undefined): void {
  if (claimedUserId !== undefined && claimedUserId !== caller.userId) throw new NotOwnAccountError();
}

/** Consent and identity verification need a verified email (issue 9, section 2). */
export function requireVerifiedEmail(caller: Pick<Caller, 'emailVerified'>): void {
  if (!caller.emailVerified) throw new EmailNotVerifiedError();
}
