import type { OrganizationInvitation, OrganizationMember } from '#contracts/organization-team.ts';
import type { TeamInvitationRecord, TeamMemberView } from '#lambdas/domain/organization/team.ts';

// The team's records as the API answers them (lambdas/contracts/organization-team.ts).

export function toMemberView({ member, kycStatus }: TeamMemberView): OrganizationMember {
  return {
    userId: member.userId,
    email: member.email,
    role: member.role,
    emailVerified: member.emailVerified,
    kycStatus,
    joinedAt: member.joinedAt,
  };
}

export function toInvitationView(invitation: TeamInvitationRecord, now: Date): OrganizationInvitation {
  return {
    invitationId: invitation.invitationId,
    email: invitation.email,
    role: invitation.role,
    invitedAt: invitation.invitedAt,
    expiresAt: invitation.expiresAt,
    expired: Date.parse(invitation.expiresAt) <= now.getTime(),
  };
}
