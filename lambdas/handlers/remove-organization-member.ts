import { removeOrganizationMemberRoute } from '#contracts/organization-team.ts';
import { organizationTeamStore, teamDirectory } from '#lambdas/adapters/organization-team-store.ts';
import { removeMember } from '#lambdas/domain/organization/team-actions.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';

// An org_admin removes a member (ADR 0084): Auth0's membership ends, the member item and profile
// are marked so their session ends at GET /api/me's next check; their account, KYC state and
// consent records stay.

const remove = removeMember({
  ...organizationTeamStore({ audit: true }),
  directory: teamDirectory(),
  clock: systemClock,
});

export const handler = httpHandler(
  { route: removeOrganizationMemberRoute },
  async ({ event, caller, requestId }) => {
    const organizationId = event.pathParameters?.organizationId ?? '';
    const userId = event.pathParameters?.userId ?? '';
    await remove({ caller, organizationId, requestId, userId });
    logger.info('organization member removed', { organizationId, subject: userId });
    return { status: 200, body: { userId, removed: true } };
  },
);
