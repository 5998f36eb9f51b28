import { randomUUID } from 'node:crypto';
import { createOwnDataDeletionRequestRoute, type DataDeletionAccepted } from '#contracts/data-deletion.ts';
import { negotiateLocale } from '#contracts/locale.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { tableName } from '#lambdas/config.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { requestOwnDataDeletion } from '#lambdas/domain/submissions/data-deletion.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const store = new DynamoDbSubmissionStore(documentClient, tableName('submissions'));
const profiles = new DynamoDbUserProfiles(documentClient, tableName('submissions'));
const mailer = createMailer();
const limiter = new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock);

export const handler = httpHandler(
  { route: createOwnDataDeletionRequestRoute },
  async ({ body, caller, event }) => {
    const request = requestOwnDataDeletion({
      profiles,
      requests: store,
      mailer,
      clock: systemClock,
      newId: randomUUID,
      limiter,
    });
    const { requestId, dueBy, alreadyPending, receiptError } = await request(
      caller,
      body,
      negotiateLocale(event.headers['accept-language']),
    );
    if (alreadyPending) {
      logger.info('data deletion request already pending (signed in)', {
        deletionRequestId: requestId,
        dueBy,
      });
      return { status: 202, body: { requestId, dueBy } satisfies DataDeletionAccepted };
    }
    logger.info('data deletion request received (signed in)', { deletionRequestId: requestId, dueBy });
    countMetric('DataDeletionRequested');
    if (receiptError !== undefined) {
      logger.error('data deletion receipt email failed', {
        deletionRequestId: requestId,
        error: receiptError instanceof Error ? receiptError : String(receiptError),
      });
      countMetric('DataDeletionConfirmationFailed');
    }
    return { status: 202, body: { requestId, dueBy } satisfies DataDeletionAccepted };
  },
);
