import { withdrawConsentRoute } from '#contracts/consent.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { createPersonaClient } from '#lambdas/adapters/persona-client.ts';
import { tableName } from '#lambdas/config.ts';
import { toHistoryRecord } from '#lambdas/domain/consent/list-my-consents.ts';
import { withdrawConsent } from '#lambdas/domain/consent/withdraw-consent.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// One store: it reads the state (the inquiry to stop) and writes it back (ADR 0075).
const kycStore = new DynamoDbKycStore(documentClient, tableName('kycState'));

const withdraw = withdrawConsent({
  ledger: new DynamoDbConsentLedger(documentClient, tableName('consentLedger')),
  limiter: new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock),
  kyc: kycStore,
  inquiries: createPersonaClient(),
  // A submitted verification whose inquiry is redacted leaves the review queue (ADR 0075).
  stopped: {
    store: kycStore,
    events: createEventPublisher(),
    clock: systemClock,
  },
  onProviderError: (error, inquiryId) => {
    // The withdrawal stands; the operator expires or redacts the inquiry (docs/operating.md).
    countMetric('ConsentWithdrawalProviderFailed');
    logger.error('consent withdrawn, but the inquiry could not be stopped at Persona', {
      inquiryId,
      error: error instanceof Error ? error.message : String(error),
    });
  },
});

export const handler = httpHandler(
  { route: withdrawConsentRoute },
  async ({ body, event, requestId, caller, viewerIp }) => {
    const { record, verification } = await withdraw({
      caller,
      purpose: body.consent_type,
      origin: {
        requestId,
        userAgent: event.requestContext.http.userAgent || event.headers['user-agent'] || '',
        ipAddress: viewerIp,
      },
    });
    countMetric('ConsentWithdrawn');
    logger.info('consent withdrawn', {
      consentId: record.consentId,
      purpose: record.purpose,
      sequence: record.sequence,
      verification,
    });
    return { status: 201, body: toHistoryRecord(record) };
  },
);
