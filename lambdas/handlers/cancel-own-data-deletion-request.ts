import { cancelOwnDataDeletionRequestRoute, type DataDeletionCancelled } from '#contracts/data-deletion.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { tableName } from '#lambdas/config.ts';
import { DeletionRequestNotFoundError } from '#lambdas/domain/errors.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { cancelOwnDataDeletion } from '#lambdas/domain/submissions/data-deletion.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const cancel = cancelOwnDataDeletion({
  requests: new DynamoDbSubmissionStore(documentClient, tableName('submissions')),
  clock: systemClock,
});

/** Request ids are UUIDs; anything else is no request of anyone's. */
const requestIdPattern = /^[0-9a-f-]{36}$/;

export const handler = httpHandler(
  { route: cancelOwnDataDeletionRequestRoute },
  async ({ event, caller }) => {
    const requestId = event.pathParameters?.requestId ?? '';
    if (!requestIdPattern.test(requestId)) throw new DeletionRequestNotFoundError();
    await cancel(caller, requestId);
    logger.info('data deletion request cancelled (signed in)', { deletionRequestId: requestId });
    countMetric('DataDeletionCancelled');
    return { status: 200, body: { requestId, status: 'cancelled' } satisfies DataDeletionCancelled };
  },
);
