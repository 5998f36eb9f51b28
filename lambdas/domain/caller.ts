import type { KycStatus, Role } from '#contracts/kyc.ts';
import { type OrganizationRole, type OrganizationType, organizationRoles } from '#contracts/organization.ts';
import {
  EmailNotVerifiedError,
  NotOwnAccountError,
  OrganizationMismatchError,
  OrganizationRoleRequiredError,
} from './errors.ts';

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
  /**
   * The organization the token is for (ADR 0083): Auth0's `org_id` on a login through it, with the
   * member's roles there (the Action's namespaced `org_roles`). Absent for a login without one.
   */
  organization?: CallerOrganization;
}

export interface CallerOrganization {
  id: string;
  roles: OrganizationRole[];
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

/**
 * The check of every organization-scoped route (ADR 0083): the organization the path or body names
 * must be the token's `org_id` (else 403 `organization-mismatch`, also for a token without one),
 * and the caller must hold one of `allowed` there (else 403 `organization-role-required`). Answers
 * the roles the caller holds among `allowed`, strongest first.
 */
export function requireOrganization(
  caller: Pick<Caller, 'organization'>,
  organizationId: string,
  allowed: readonly OrganizationRole[] = organizationRoles,
): OrganizationRole[] {
  if (!caller.organization || caller.organization.id !== organizationId)
    throw new OrganizationMismatchError();
  const held = caller.organization.roles;
  const roles = organizationRoles.filter((role) => allowed.includes(role) && held.includes(role));
  if (roles.length === 0) throw new OrganizationRoleRequiredError();
  return roles;
}
