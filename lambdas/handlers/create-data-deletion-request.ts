import { randomUUID } from 'node:crypto';
import type { DataDeletionAccepted } from '#contracts/data-deletion.ts';
import { dataDeletionRequest } from '#contracts/data-deletion.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { tableName } from '#lambdas/config.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { requestDataDeletion } from '#lambdas/domain/submissions/data-deletion.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger, maskEmail } from '#lambdas/http/logger.ts';
import { countMetric } from '#lambdas/http/metrics.ts';

const requestDeletion = requestDataDeletion({
  store: new DynamoDbSubmissionStore(documentClient, tableName('submissions')),
  mailer: createMailer(),
  clock: systemClock,
  newId: randomUUID,
});

export const handler = httpHandler(
  { route: 'CreateDataDeletionRequest', body: dataDeletionRequest },
  async ({ body }) => {
    const { requestId, dueBy, confirmationError } = await requestDeletion(body);
    logger.info('data deletion request received', { deletionRequestId: requestId, dueBy });
    countMetric('DataDeletionRequested');
    if (confirmationError !== undefined) {
      // The request stands; operations must confirm it by hand.
      logger.error('data deletion confirmation email failed', {
        deletionRequestId: requestId,
        email: maskEmail(body.email),
        error: confirmationError instanceof Error ? confirmationError : String(confirmationError),
      });
      countMetric('DataDeletionConfirmationFailed');
    }
    return { status: 202, body: { requestId, dueBy } satisfies DataDeletionAccepted };
  },
);
