import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycOutbox } from '#lambdas/adapters/dynamodb-kyc-outbox.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { tableName } from '#lambdas/config.ts';
import { relayOutbox } from '#lambdas/domain/kyc/publish-outbox.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// Scheduled every minute (event rule RelayKycOutbox): publishes the KycStatusChanged events whose
// immediate publish failed after the status change was written.

const relay = relayOutbox({
  store: new DynamoDbKycOutbox(documentClient, tableName('kycState')),
  events: createEventPublisher(),
  clock: systemClock,
});

export const handler = eventHandler({ name: 'Scheduled Event' }, async () => {
  const result = await relay();
  if (result.published > 0) countMetric('KycOutboxRelayed', result.published);
  if (result.published > 0 || result.failed > 0) {
    logger.info('kyc outbox relayed', { published: result.published, failed: result.failed });
  }
  if (result.failed > 0) {
    countMetric('KycOutboxRelayFailed', result.failed);
    // Fail the invocation so the error shows in the function's metrics and alarms; the items
    // stay in the outbox for the next run.
    const first = result.errors[0];
    throw new Error(
      `${result.failed} outbox item(s) not published: ${first instanceof Error ? first.message : String(first)}`,
    );
  }
});
