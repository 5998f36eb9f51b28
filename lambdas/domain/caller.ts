import type { KycStatus, Role } from '#contracts/kyc.ts';
import type { OrganizationType } from '#contracts/organization.ts';
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
  /**
   * What else the Action copied into the token when it was minted (ADR 0059): the account's email
   * and name, and app_metadata's KYC status and organization type. Up to a token's lifetime old:
   * the screens use them only for an account the product holds no profile or KYC state of.
   */
  claims: CallerClaims;
}

export interface CallerClaims {
  email?: string;
  name?: string;
  kycStatus?: KycStatus;
  organizationType?: OrganizationType;
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
