import { type ConsentCreated, createConsentRoute } from '#contracts/consent.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedgerWithLanguageChoice } from '#lambdas/adapters/dynamodb-consent-ledger-choice.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { tableName } from '#lambdas/config.ts';
import { recordConsent } from '#lambdas/domain/consent/record-consent.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const record = recordConsent({
  // The consent's language is the person's latest choice, recorded on their profile in the same
  // write as the record (issue 28).
  ledger: new DynamoDbConsentLedgerWithLanguageChoice(
    documentClient,
    tableName('consentLedger'),
    tableName('submissions'),
  ),
  limiter: new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock),
});

export const handler = httpHandler(
  { route: createConsentRoute },
  async ({ body, event, requestId, caller, viewerIp }) => {
    const consent = await record({
      caller,
      decision: body,
      origin: {
        requestId,
        userAgent: event.requestContext.http.userAgent || event.headers['user-agent'] || '',
        ipAddress: viewerIp,
      },
    });
    countMetric('ConsentRecorded');
    logger.info('consent recorded', {
      consentId: consent.consentId,
      purpose: consent.purpose,
      sequence: consent.sequence,
    });
    return {
      status: 201,
      body: {
        success: true,
        consentId: consent.consentId,
        recordedAt: consent.recordedAt,
      } satisfies ConsentCreated,
    };
  },
);
