import { kycStatusChanged } from '#contracts/events.ts';
import { getUserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbOnceMarker } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { notifyKycDecision } from '#lambdas/domain/account/notify.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { kycDecisionMarkerPrefix } from '#lambdas/event-rules.ts';
import type { LambdaContext } from '#lambdas/http/api-gateway.ts';
import { logger } from '#lambdas/http/logger.ts';
import { countMetric, flushMetrics } from '#lambdas/http/metrics.ts';

// EventBridge target for KycStatusChanged (approved/rejected): one email per status change (its
// changeId; the event id for events published before changeId existed). Retryable
// failures are thrown (EventBridge retries, then the DLQ); invalid events are logged and dropped.

interface KycStatusChangedEvent {
  id: string;
  detail: unknown;
}

const marker = new DynamoDbOnceMarker(
  documentClient,
  tableName('kycState'),
  kycDecisionMarkerPrefix,
  systemClock,
);
const mailer = createMailer();
const appUrl = requireEnv('APP_URL');

export const handler = async (event: KycStatusChangedEvent, context: LambdaContext): Promise<void> => {
  logger.appendKeys({ eventId: event.id, requestId: context.awsRequestId });
  try {
    const parsed = kycStatusChanged.safeParse(event.detail);
    if (!parsed.success || !event.id) {
      logger.error('invalid KycStatusChanged event dropped', { issues: parsed.error?.issues });
      countMetric('InvalidEventDropped');
      return;
    }
    const notify = notifyKycDecision({
      users: await getUserDirectory('auth0ReadUsers'),
      mailer,
      marker,
      appUrl,
    });
    const outcome = await notify(event.id, parsed.data);
    logger.info('kyc decision notification', {
      userId: parsed.data.userId,
      status: parsed.data.status,
      outcome,
    });
    if (outcome === 'sent') countMetric('KycDecisionEmailSent');
  } finally {
    flushMetrics();
    logger.removeKeys(['eventId', 'requestId']);
  }
};
