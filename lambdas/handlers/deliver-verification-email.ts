import { verificationEmailRequested } from '#contracts/events.ts';
import { getUserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { deliverVerificationEmail } from '#lambdas/domain/account/send-verification-email.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// EventBridge target for VerificationEmailRequested (ADR 0059): Auth0's verification-email job,
// off the request path. A refusal of the tenant's quota (429 past the adapter's bounded retries)
// is thrown, so the bus retries it later and, past its retries, dead-letters it.

export const handler = eventHandler(
  { name: 'VerificationEmailRequested', detail: verificationEmailRequested },
  async (detail) => {
    const outcome = await deliverVerificationEmail({
      users: await getUserDirectory('auth0VerificationEmail'),
    })(detail.userId);
    logger.info('verification email', { userId: detail.userId, outcome });
    if (outcome === 'sent') countMetric('VerificationEmailSent');
  },
);
