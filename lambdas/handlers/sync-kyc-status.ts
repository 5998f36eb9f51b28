import { kycStatusChanged } from '#contracts/events.ts';
import { getUserDirectory, isPermanentDirectoryError } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { tableName } from '#lambdas/config.ts';
import { syncKycStatus } from '#lambdas/domain/account/sync-kyc-status.ts';
import type { LambdaContext } from '#lambdas/http/api-gateway.ts';
import { logger } from '#lambdas/http/logger.ts';
import { countMetric, flushMetrics } from '#lambdas/http/metrics.ts';

// EventBridge target for KycStatusChanged. A thrown error makes EventBridge retry (then the DLQ),
// so only retryable failures (Auth0 429/5xx past the adapter's bounded retries, DynamoDB errors)
// are thrown; an invalid event or a permanent Auth0 refusal is logged and dropped.

interface KycStatusChangedEvent {
  id: string;
  'detail-type'?: string;
  source?: string;
  detail: unknown;
}

const kyc = new DynamoDbKycStateReader(documentClient, tableName('kycState'));

export const handler = async (event: KycStatusChangedEvent, context: LambdaContext): Promise<void> => {
  logger.appendKeys({ eventId: event.id, requestId: context.awsRequestId });
  try {
    const parsed = kycStatusChanged.safeParse(event.detail);
    if (!parsed.success) {
      logger.error('invalid KycStatusChanged event dropped', { issues: parsed.error.issues });
      countMetric('InvalidEventDropped');
      return;
    }
    try {
      const outcome = await syncKycStatus({ users: await getUserDirectory('auth0KycSync'), kyc })(
        parsed.data,
      );
      logger.info('kyc status sync', { userId: parsed.data.userId, outcome });
      if (outcome === 'synced') countMetric('KycStatusSynced');
    } catch (error) {
      if (!isPermanentDirectoryError(error)) throw error;
      logger.error('auth0 refused the kyc status sync; event dropped', { userId: parsed.data.userId, error });
      countMetric('KycStatusSyncRefused');
    }
  } finally {
    flushMetrics();
    logger.removeKeys(['eventId', 'requestId']);
  }
};
