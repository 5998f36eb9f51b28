import type { SuccessResponse } from '#contracts/common.ts';
import { createWaitlistEntryRoute } from '#contracts/waitlist.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { tableName } from '#lambdas/config.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { joinWaitlist } from '#lambdas/domain/waitlist.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';

const join = joinWaitlist({
  store: new DynamoDbSubmissionStore(documentClient, tableName('submissions')),
  clock: systemClock,
});

export const handler = httpHandler({ route: createWaitlistEntryRoute }, async ({ body }) => {
  const { added } = await join(body);
  logger.info('waitlist sign-up', { added });
  return { status: 201, body: { success: true } satisfies SuccessResponse };
});
