import { confirmDataDeletionRequestRoute, type DataDeletionAccepted } from '#contracts/data-deletion.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { tableName } from '#lambdas/config.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { confirmDataDeletion } from '#lambdas/domain/submissions/data-deletion.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const confirm = confirmDataDeletion({
  requests: new DynamoDbSubmissionStore(documentClient, tableName('submissions')),
  clock: systemClock,
});

export const handler = httpHandler({ route: confirmDataDeletionRequestRoute }, async ({ body }) => {
  const { requestId, dueBy } = await confirm(body.token);
  logger.info('data deletion request confirmed', { deletionRequestId: requestId, dueBy });
  countMetric('DataDeletionConfirmed');
  return { status: 200, body: { requestId, dueBy } satisfies DataDeletionAccepted };
});
