import { randomUUID } from 'node:crypto';
import { createDataDeletionRequestRoute, type DataDeletionPending } from '#contracts/data-deletion.ts';
import { negotiateLocale } from '#contracts/locale.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { requestDataDeletion } from '#lambdas/domain/submissions/data-deletion.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger, maskEmail } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const requestDeletion = requestDataDeletion({
  store: new DynamoDbSubmissionStore(documentClient, tableName('submissions')),
  mailer: createMailer(),
  limiter: new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock),
  clock: systemClock,
  newId: randomUUID,
  appUrl: requireEnv('appUrl'),
});

export const handler = httpHandler({ route: createDataDeletionRequestRoute }, async ({ body, event }) => {
  const { requestId, confirmBy, dueBy, outcome, confirmationError } = await requestDeletion(
    body,
    negotiateLocale(event.headers['accept-language']),
  );
  logger.info('data deletion request awaiting confirmation', { deletionRequestId: requestId, outcome });
  countMetric('DataDeletionRequested');
  if (outcome === 'over_recipient_limit') {
    logger.warn('public email over its per-recipient limit: not sent', {
      kind: 'deletion-confirmation-email',
      email: maskEmail(body.email),
    });
    countMetric('PublicEmailSuppressed');
  }
  if (confirmationError !== undefined) {
    logger.error('data deletion confirmation email failed', {
      deletionRequestId: requestId,
      email: maskEmail(body.email),
      error: confirmationError instanceof Error ? confirmationError : String(confirmationError),
    });
    countMetric('DataDeletionConfirmationFailed');
  }
  // The same answer whatever happened to the email: it says nothing about the address.
  return { status: 202, body: { requestId, confirmBy, dueBy } satisfies DataDeletionPending };
});
