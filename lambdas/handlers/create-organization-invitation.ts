import { createOrganizationInvitationRoute } from '#contracts/organization-team.ts';
import { invitationDeps, teamDirectory } from '#lambdas/adapters/organization-team-store.ts';
import { inviteMember } from '#lambdas/domain/organization/team-actions.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { toInvitationView } from '#lambdas/http/organization-team-views.ts';
import { logger } from '#lambdas/runtime/logger.ts';

// An approved org_admin invites a colleague (ADR 0084): Auth0's organization invitation (which
// sends the email), then the product's record and its trail entry. The address stays out of logs.

const invite = inviteMember({ ...invitationDeps(), directory: teamDirectory() });

export const handler = httpHandler(
  { route: createOrganizationInvitationRoute },
  async ({ body, event, caller, requestId }) => {
    const organizationId = event.pathParameters?.organizationId ?? '';
    const invitation = await invite({
      caller,
      organizationId,
      requestId,
      email: body.email,
      role: body.role,
    });
    logger.info('organization invitation created', { organizationId, invitationId: invitation.invitationId });
    return { status: 201, body: toInvitationView(invitation, systemClock.now()) };
  },
);
