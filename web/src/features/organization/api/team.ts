import {
  type InvitationRequest,
  type MemberRoleRequest,
  type OrganizationInvitation,
  type OrganizationMember,
  type OrganizationTeamResponse,
  organizationInvitation,
  organizationMember,
  organizationTeamResponse,
  removedMemberResponse,
  revokedInvitationResponse,
} from '#contracts/organization-team.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// The team page's calls (ADR 0084): every one names the organization, which must be the token's
// `org_id` (ADR 0083).

export function listTeam(
  api: ApiClient,
  organizationId: string,
  signal?: AbortSignal,
): Promise<OrganizationTeamResponse> {
  return api.call('ListOrganizationTeam', {
    params: { organizationId },
    response: organizationTeamResponse,
    signal,
  });
}

export function inviteColleague(
  api: ApiClient,
  organizationId: string,
  body: InvitationRequest,
): Promise<OrganizationInvitation> {
  return api.call('CreateOrganizationInvitation', body, {
    params: { organizationId },
    response: organizationInvitation,
  });
}

export function resendInvitation(api: ApiClient, organizationId: string, invitationId: string) {
  return api.call('ResendOrganizationInvitation', {
    params: { organizationId, invitationId },
    response: organizationInvitation,
  });
}

export function revokeInvitation(api: ApiClient, organizationId: string, invitationId: string) {
  return api.call('RevokeOrganizationInvitation', {
    params: { organizationId, invitationId },
    response: revokedInvitationResponse,
  });
}

export function changeMemberRole(
  api: ApiClient,
  organizationId: string,
  userId: string,
  body: MemberRoleRequest,
): Promise<OrganizationMember> {
  return api.call('ChangeOrganizationMemberRole', body, {
    params: { organizationId, userId },
    response: organizationMember,
  });
}

export function removeMember(api: ApiClient, organizationId: string, userId: string) {
  return api.call('RemoveOrganizationMember', {
    params: { organizationId, userId },
    response: removedMemberResponse,
  });
}
