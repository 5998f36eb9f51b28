import type { SuccessResponse } from '#contracts/common.ts';
import { createCookieConsentRoute } from '#contracts/cookie-consent.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { tableName } from '#lambdas/config.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { recordCookieConsent } from '#lambdas/domain/submissions/public-forms.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';

const record = recordCookieConsent({
  store: new DynamoDbSubmissionStore(documentClient, tableName('submissions')),
  clock: systemClock,
});

// The user agent is deliberately not read: the choice and a /24 network are proof enough.
export const handler = httpHandler({ route: createCookieConsentRoute }, async ({ body, viewerIp }) => {
  const { stored } = await record(body, { sourceIp: viewerIp });
  logger.info('cookie consent', { stored, revision: body.revision });
  return { status: 201, body: { success: true } satisfies SuccessResponse };
});
