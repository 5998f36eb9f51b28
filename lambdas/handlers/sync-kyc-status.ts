import { kycStatusChanged } from '#contracts/events.ts';
import { getUserDirectory, isPermanentDirectoryError } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { tableName } from '#lambdas/config.ts';
import { syncKycStatus } from '#lambdas/domain/account/sync-kyc-status.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// EventBridge target for KycStatusChanged. A thrown error makes EventBridge retry (then the DLQ),
// so only retryable failures (Auth0 429/5xx past the adapter's bounded retries, DynamoDB errors)
// are thrown; an invalid event or a permanent Auth0 refusal is logged and dropped.

const kyc = new DynamoDbKycStateReader(documentClient, tableName('kycState'));
const profiles = new DynamoDbUserProfiles(documentClient, tableName('submissions'));

export const handler = eventHandler(
  { name: 'KycStatusChanged', detail: kycStatusChanged },
  async (detail) => {
    try {
      const outcome = await syncKycStatus({
        users: await getUserDirectory('auth0KycSync'),
        kyc,
        profiles,
      })(detail);
      logger.info('kyc status sync', { userId: detail.userId, outcome });
      if (outcome === 'synced') countMetric('KycStatusSynced');
    } catch (error) {
      if (!isPermanentDirectoryError(error)) throw error;
      logger.error('auth0 refused the kyc status sync; event dropped', { userId: detail.userId, error });
      countMetric('KycStatusSyncRefused');
    }
  },
);
