import { resendOrganizationInvitationRoute } from '#contracts/organization-team.ts';
import { invitationDeps, teamDirectory } from '#lambdas/adapters/organization-team-store.ts';
import { resendInvitation } from '#lambdas/domain/organization/team-actions.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { toInvitationView } from '#lambdas/http/organization-team-views.ts';
import { logger } from '#lambdas/runtime/logger.ts';

// A new invitation in place of a pending or expired one (ADR 0084): Auth0 has no resend, so the
// old invitation is deleted and a new one (a new link, seven days from now) created.

const resend = resendInvitation({ ...invitationDeps(), directory: teamDirectory() });

export const handler = httpHandler(
  { route: resendOrganizationInvitationRoute },
  async ({ event, caller, requestId }) => {
    const organizationId = event.pathParameters?.organizationId ?? '';
    const invitationId = event.pathParameters?.invitationId ?? '';
    const invitation = await resend({ caller, organizationId, requestId, invitationId });
    logger.info('organization invitation resent', {
      organizationId,
      previousInvitationId: invitationId,
      invitationId: invitation.invitationId,
    });
    return { status: 201, body: toInvitationView(invitation, systemClock.now()) };
  },
);
