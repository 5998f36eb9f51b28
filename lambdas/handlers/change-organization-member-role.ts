import { changeOrganizationMemberRoleRoute } from '#contracts/organization-team.ts';
import { organizationTeamStore, teamDirectory } from '#lambdas/adapters/organization-team-store.ts';
import { changeMemberRole } from '#lambdas/domain/organization/team-actions.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { toMemberView } from '#lambdas/http/organization-team-views.ts';
import { logger } from '#lambdas/runtime/logger.ts';

// An org_admin changes a member's role (ADR 0084): Auth0's member roles (the next token carries
// it), then the member item and the member's profile (GET /api/me at once), with the trail entry.

const change = changeMemberRole({
  ...organizationTeamStore({ kyc: true, audit: true }),
  directory: teamDirectory(),
  clock: systemClock,
});

export const handler = httpHandler(
  { route: changeOrganizationMemberRoleRoute },
  async ({ body, event, caller, requestId }) => {
    const organizationId = event.pathParameters?.organizationId ?? '';
    const userId = event.pathParameters?.userId ?? '';
    const member = await change({ caller, organizationId, requestId, userId, role: body.role });
    logger.info('organization member role changed', { organizationId, subject: userId, role: body.role });
    return { status: 200, body: toMemberView(member) };
  },
);
