import { randomUUID } from 'node:crypto';
import type { SuccessResponse } from '#contracts/common.ts';
import { createContactMessageRoute } from '#contracts/contact.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { tableName } from '#lambdas/config.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { sendContactMessage } from '#lambdas/domain/submissions/public-forms.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const send = sendContactMessage({
  store: new DynamoDbSubmissionStore(documentClient, tableName('submissions')),
  clock: systemClock,
  newId: randomUUID,
});

export const handler = httpHandler({ route: createContactMessageRoute }, async ({ body }) => {
  const { id } = await send(body);
  logger.info('contact message received', { messageId: id });
  countMetric('ContactMessageReceived');
  return { status: 201, body: { success: true } satisfies SuccessResponse };
});
