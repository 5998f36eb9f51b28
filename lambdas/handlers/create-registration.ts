import type { SuccessResponse } from '#contracts/common.ts';
import { consentDocuments } from '#contracts/consent-documents.ts';
import { registrationRequest } from '#contracts/registration.ts';
import { getUserDirectory, identityIssuer } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { recordRegistrationAgreements } from '#lambdas/domain/consent/record-consent.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { registerOrganization } from '#lambdas/domain/registration/register-organization.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger, maskEmail, securityEvent } from '#lambdas/http/logger.ts';
import { countMetric } from '#lambdas/http/metrics.ts';

const ledger = new DynamoDbConsentLedger(documentClient, tableName('consentLedger'));
const store = new DynamoDbRegistrationStore(documentClient, tableName('submissions'));
const mailer = createMailer();
const events = createEventPublisher();
const appUrl = requireEnv('APP_URL');
const issuer = identityIssuer();

// Every step is idempotent, so an Auth0 outage (DirectoryUnavailableError, 503 with Retry-After)
// only asks the person to send the same form again.
export const handler = httpHandler(
  { route: 'CreateRegistration', body: registrationRequest },
  async ({ body, event, requestId }) => {
    const register = registerOrganization({
      users: await getUserDirectory('auth0Registration'),
      store,
      ledger,
      recordAgreements: (input) => recordRegistrationAgreements({ ledger }, input),
      mailer,
      events,
      clock: systemClock,
      appUrl,
      issuer,
    });
    const result = await register(body, {
      requestId,
      userAgent: event.headers['user-agent'] ?? event.requestContext.http.userAgent,
      ipAddress: event.requestContext.http.sourceIp,
      // The wizard shows the agreement texts in their documents' locale.
      locale: consentDocuments.terms_of_service.locale,
    });
    switch (result.outcome) {
      case 'honeypot':
        securityEvent('honeypot_triggered', { route: 'registrations' });
        break;
      case 'account_exists':
        logger.info('registration for an address that has an account', {
          email: maskEmail(body.responsibleEmail),
        });
        break;
      case 'registered':
        countMetric('RegistrationSubmitted');
        logger.info('registration completed', { userId: result.userId });
        break;
    }
    // The same answer in every accepted case: the response never says whether an account exists.
    return { status: 201, body: { success: true } satisfies SuccessResponse };
  },
);
