import type { StartKycInquiryResponse } from '#contracts/kyc-inquiry.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { createPersonaClient, PersonaApiError } from '#lambdas/adapters/persona-client.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import {
  AlreadyApprovedError,
  ConcurrentChangeError,
  ConsentRequiredError,
  VerificationClosedError,
} from '#lambdas/domain/kyc/errors.ts';
import { startInquiry } from '#lambdas/domain/kyc/start-inquiry.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { HttpError } from '#lambdas/http/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/http/logger.ts';

const start = startInquiry({
  ledger: new DynamoDbConsentLedger(documentClient, tableName('consentLedger')),
  store: new DynamoDbKycStore(documentClient, tableName('kycState')),
  provider: createPersonaClient(),
  clock: systemClock,
  templateId: requireEnv('PERSONA_TEMPLATE_ID'),
});

export const handler = httpHandler({ auth: 'user' }, async ({ caller }) => {
  try {
    const result = await start(caller.userId);
    logger.info('kyc inquiry started', { inquiryId: result.inquiryId, resumable: !!result.sessionToken });
    return { status: 200, body: result satisfies StartKycInquiryResponse };
  } catch (error) {
    // 409: the request is well-formed but the account is not in a state that allows it.
    if (
      error instanceof ConsentRequiredError ||
      error instanceof AlreadyApprovedError ||
      error instanceof VerificationClosedError ||
      error instanceof ConcurrentChangeError
    ) {
      throw new HttpError(409, 'Conflict', error.message);
    }
    if (error instanceof PersonaApiError) {
      logger.error('persona api call failed', { status: error.status, message: error.message });
      throw new HttpError(
        502,
        'Bad Gateway',
        'The identity-verification service is not available right now. Try again in a moment.',
      );
    }
    throw error;
  }
});
