import { kycStatusChanged } from '#contracts/events.ts';
import { getUserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbOnceMarker } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { notifyKycDecision } from '#lambdas/domain/account/notify.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { kycDecisionMarkerPrefix } from '#lambdas/event-rules.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// EventBridge target for KycStatusChanged (approved/rejected): one email per status change (its
// changeId; the event id for events published before changeId existed). Retryable
// failures are thrown (EventBridge retries, then the DLQ); invalid events are logged and dropped.

const marker = new DynamoDbOnceMarker(
  documentClient,
  tableName('kycState'),
  kycDecisionMarkerPrefix,
  systemClock,
);
const profiles = new DynamoDbUserProfiles(documentClient, tableName('submissions'));
const mailer = createMailer();
const appUrl = requireEnv('appUrl');

export const handler = eventHandler(
  { name: 'KycStatusChanged', detail: kycStatusChanged },
  async (detail, event) => {
    const notify = notifyKycDecision({
      profiles,
      users: () => getUserDirectory('auth0ReadUsers'),
      mailer,
      marker,
      appUrl,
    });
    const outcome = await notify(event.id, detail);
    logger.info('kyc decision notification', { userId: detail.userId, status: detail.status, outcome });
    if (outcome === 'sent') countMetric('KycDecisionEmailSent');
  },
);
