import { listOrganizationTeamRoute, type OrganizationTeamResponse } from '#contracts/organization-team.ts';
import { organizationTeamStore } from '#lambdas/adapters/organization-team-store.ts';
import { listTeam } from '#lambdas/domain/organization/team-actions.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { toInvitationView, toMemberView } from '#lambdas/http/organization-team-views.ts';

// The team page's list (ADR 0084): one Query of the organization's partition and one BatchGetItem
// of the members' KYC states; never Auth0.

const list = listTeam(organizationTeamStore({ kyc: true }));

export const handler = httpHandler(
  { route: listOrganizationTeamRoute },
  async ({ event, caller, requestId }) => {
    const organizationId = event.pathParameters?.organizationId ?? '';
    const team = await list({ caller, organizationId, requestId });
    const now = systemClock.now();
    return {
      status: 200,
      body: {
        organizationId,
        members: team.members.map(toMemberView),
        invitations: team.invitations.map((invitation) => toInvitationView(invitation, now)),
      } satisfies OrganizationTeamResponse,
    };
  },
);
