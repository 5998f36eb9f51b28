import { type StartKycInquiryResponse, startKycInquiryRoute } from '#contracts/kyc-inquiry.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { createPersonaClient } from '#lambdas/adapters/persona-client.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { startInquiry } from '#lambdas/domain/kyc/start-inquiry.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';

const start = startInquiry({
  ledger: new DynamoDbConsentLedger(documentClient, tableName('consentLedger')),
  store: new DynamoDbKycStore(documentClient, tableName('kycState')),
  provider: createPersonaClient(),
  events: createEventPublisher(),
  clock: systemClock,
  templateId: requireEnv('personaTemplateId'),
  limiter: new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock),
});

export const handler = httpHandler({ route: startKycInquiryRoute }, async ({ caller }) => {
  const result = await start(caller);
  logger.info('kyc inquiry started', { inquiryId: result.inquiryId, resumable: !!result.sessionToken });
  return { status: 200, body: result satisfies StartKycInquiryResponse };
});
