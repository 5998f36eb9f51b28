import * as z from 'zod/mini';
import { businessEmail } from './business-email.ts';
import { kycStatus } from './kyc.ts';
import { organizationRoles } from './organization.ts';
import { route } from './route.ts';

// The organization's team (issue 27, items 2 and 3; ADR 0084): its members, the invitations that
// bring colleagues in, and what an `org_admin` does with them on the team page (`/organization`).
// Every route is organization-scoped: the path's id must be the token's `org_id` (ADR 0083), and
// the caller's membership and role are read from the product's own record, not the token alone.

export const organizationTeamMessages = {
  role: 'Please choose a role',
} as const;

const organizationRole = z.enum(organizationRoles, organizationTeamMessages.role);

/** One member as the team page lists it. */
export const organizationMember = z.strictObject({
  userId: z.string(),
  email: z.string(),
  role: organizationRole,
  /** Whether the member's address is verified (an accepted invitation proves it). */
  emailVerified: z.boolean(),
  /** The member's own identity verification, from the KYC table. */
  kycStatus,
  /** When the member joined (ISO 8601, UTC). */
  joinedAt: z.string(),
});
export type OrganizationMember = z.infer<typeof organizationMember>;

/** An invitation not yet accepted, revoked or expired. */
export const organizationInvitation = z.strictObject({
  /** Auth0's invitation id (`uinv_…`). */
  invitationId: z.string(),
  email: z.string(),
  role: organizationRole,
  /** ISO 8601, UTC. */
  invitedAt: z.string(),
  /** Seven days after `invitedAt`: Auth0's invitation stops working then (ISO 8601, UTC). */
  expiresAt: z.string(),
  /** True once `expiresAt` has passed: resend or revoke it. */
  expired: z.boolean(),
});
export type OrganizationInvitation = z.infer<typeof organizationInvitation>;

export const organizationTeamResponse = z.strictObject({
  organizationId: z.string(),
  members: z.array(organizationMember),
  invitations: z.array(organizationInvitation),
});
export type OrganizationTeamResponse = z.infer<typeof organizationTeamResponse>;

export const listOrganizationTeamRoute = route('ListOrganizationTeam', {
  auth: 'user',
  response: organizationTeamResponse,
  successStatus: 200,
  problems: [
    'organizationMismatch',
    'organizationRoleRequired',
    'organizationNotFound',
    'organizationMembershipEnded',
  ],
});

/** The invitation form: a colleague's business address and the role they will hold. */
export const invitationRequest = z.strictObject({
  email: businessEmail,
  role: organizationRole,
});
export type InvitationRequest = z.infer<typeof invitationRequest>;

export const createOrganizationInvitationRoute = route('CreateOrganizationInvitation', {
  auth: 'user',
  body: invitationRequest,
  response: organizationInvitation,
  successStatus: 201,
  problems: [
    'organizationMismatch',
    'organizationRoleRequired',
    'organizationNotFound',
    'organizationMembershipEnded',
    'organizationApprovalRequired',
    'alreadyMember',
    'invitationPending',
    'rateLimited',
    'concurrentChange',
    'identityProviderUnavailable',
  ],
});

/** A new invitation in place of the old one: a new link, valid seven days from now. */
export const resendOrganizationInvitationRoute = route('ResendOrganizationInvitation', {
  auth: 'user',
  response: organizationInvitation,
  successStatus: 201,
  problems: [
    'organizationMismatch',
    'organizationRoleRequired',
    'organizationNotFound',
    'organizationMembershipEnded',
    'organizationApprovalRequired',
    'invitationNotFound',
    'rateLimited',
    'concurrentChange',
    'identityProviderUnavailable',
  ],
});

export const revokedInvitationResponse = z.strictObject({
  invitationId: z.string(),
  revoked: z.literal(true),
});

export const revokeOrganizationInvitationRoute = route('RevokeOrganizationInvitation', {
  auth: 'user',
  response: revokedInvitationResponse,
  successStatus: 200,
  problems: [
    'organizationMismatch',
    'organizationRoleRequired',
    'organizationNotFound',
    'organizationMembershipEnded',
    'invitationNotFound',
    'concurrentChange',
    'identityProviderUnavailable',
  ],
});

export const memberRoleRequest = z.strictObject({ role: organizationRole });
export type MemberRoleRequest = z.infer<typeof memberRoleRequest>;

export const changeOrganizationMemberRoleRoute = route('ChangeOrganizationMemberRole', {
  auth: 'user',
  body: memberRoleRequest,
  response: organizationMember,
  successStatus: 200,
  problems: [
    'organizationMismatch',
    'organizationRoleRequired',
    'organizationNotFound',
    'organizationMembershipEnded',
    'memberNotFound',
    'lastOrganizationAdmin',
    'concurrentChange',
    'identityProviderUnavailable',
  ],
});

export const removedMemberResponse = z.strictObject({ userId: z.string(), removed: z.literal(true) });

export const removeOrganizationMemberRoute = route('RemoveOrganizationMember', {
  auth: 'user',
  response: removedMemberResponse,
  successStatus: 200,
  problems: [
    'organizationMismatch',
    'organizationRoleRequired',
    'organizationNotFound',
    'organizationMembershipEnded',
    'memberNotFound',
    'lastOrganizationAdmin',
    'concurrentChange',
    'identityProviderUnavailable',
  ],
});

/**
 * The invitee's first call after accepting (the web makes it when `GET /api/me` has no
 * organization but the token names one): the pending invitation for the caller's verified address
 * becomes a membership. Answers the same for a member who calls it again.
 */
export const joinOrganizationResponse = z.strictObject({
  organizationId: z.string(),
  role: organizationRole,
});

export const joinOrganizationRoute = route('JoinOrganization', {
  auth: 'user',
  response: joinOrganizationResponse,
  successStatus: 200,
  problems: [
    'organizationMismatch',
    'organizationNotFound',
    'emailNotVerified',
    'invitationNotFound',
    'alreadyMember',
    'concurrentChange',
  ],
});
