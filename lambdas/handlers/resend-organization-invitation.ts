import { resendOrganizationInvitationRoute } from '#contracts/organization-team.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { organizationTeamStore, teamDirectory } from '#lambdas/adapters/organization-team-store.ts';
import { tableName } from '#lambdas/config.ts';
import { resendInvitation } from '#lambdas/domain/organization/team-actions.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { toInvitationView } from '#lambdas/http/organization-team-views.ts';
import { logger } from '#lambdas/runtime/logger.ts';

// A new invitation in place of a pending or expired one (ADR 0084): Auth0 has no resend, so the
// old invitation is deleted and a new one (a new link, seven days from now) created.

const resend = resendInvitation({
  ...organizationTeamStore({ audit: true }),
  directory: teamDirectory(),
  kyc: new DynamoDbKycStateReader(documentClient, tableName('kycState')),
  limiter: new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock),
  clock: systemClock,
});

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
