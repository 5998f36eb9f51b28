import { joinOrganizationRoute } from '#contracts/organization-team.ts';
import { organizationTeamStore } from '#lambdas/adapters/organization-team-store.ts';
import { joinOrganization } from '#lambdas/domain/organization/team-actions.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';

// After accepting an invitation (ADR 0084): the invitation for the caller's verified address
// becomes their membership and profile, with its trail entry. Auth0 made them a member already.

const join = joinOrganization({ ...organizationTeamStore({ audit: true }), clock: systemClock });

export const handler = httpHandler({ route: joinOrganizationRoute }, async ({ event, caller, requestId }) => {
  const organizationId = event.pathParameters?.organizationId ?? '';
  const { role } = await join({ caller, organizationId, requestId });
  logger.info('organization joined', { organizationId, role });
  return { status: 200, body: { organizationId, role } };
});
