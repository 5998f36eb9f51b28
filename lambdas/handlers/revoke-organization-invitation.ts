import { revokeOrganizationInvitationRoute } from '#contracts/organization-team.ts';
import { organizationTeamStore, teamDirectory } from '#lambdas/adapters/organization-team-store.ts';
import { revokeInvitation } from '#lambdas/domain/organization/team-actions.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';

// Revoking an invitation (ADR 0084): Auth0's invitation deleted, so its link stops working; the
// product's record marked revoked, with its trail entry.

const revoke = revokeInvitation({
  ...organizationTeamStore({ audit: true }),
  directory: teamDirectory(),
  clock: systemClock,
});

export const handler = httpHandler(
  { route: revokeOrganizationInvitationRoute },
  async ({ event, caller, requestId }) => {
    const organizationId = event.pathParameters?.organizationId ?? '';
    const invitationId = event.pathParameters?.invitationId ?? '';
    await revoke({ caller, organizationId, requestId, invitationId });
    logger.info('organization invitation revoked', { organizationId, invitationId });
    return { status: 200, body: { invitationId, revoked: true } };
  },
);
