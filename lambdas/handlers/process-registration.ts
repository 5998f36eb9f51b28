import { registrationRequested } from '#contracts/events.ts';
import { getUserDirectory, identityIssuer } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbOrganizations } from '#lambdas/adapters/dynamodb-organizations.ts';
import { DynamoDbOnceMarker, DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { recordRegistrationAgreements } from '#lambdas/domain/consent/record-consent.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { registerOrganization } from '#lambdas/domain/registration/register-organization.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger, maskEmail } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// EventBridge target for RegistrationRequested: the account work of a registration the API accepted
// (ADR 0007, ADR 0033). Failures throw, so EventBridge retries, then dead-letters the event; every
// step is idempotent (progress per email), so a retry finishes what the last attempt started.

const ledger = new DynamoDbConsentLedger(documentClient, tableName('consentLedger'));
const store = new DynamoDbRegistrationStore(documentClient, tableName('submissions'));
const profiles = new DynamoDbUserProfiles(documentClient, tableName('submissions'));
const organizationRecords = new DynamoDbOrganizations(documentClient, tableName('submissions'));
const limiter = new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock);
// Per address while one registration of it runs (ADR 0036). Stale after twice the function's
// timeout, so an invocation that died cannot hold an address for longer.
const inProgress = new DynamoDbOnceMarker(
  documentClient,
  tableName('submissions'),
  'REGISTERING',
  systemClock,
  {
    ttlSeconds: 24 * 60 * 60,
    staleAfterMs: 2 * 60 * 1000,
  },
);
const mailer = createMailer();
const events = createEventPublisher();
const appUrl = requireEnv('appUrl');
const issuer = identityIssuer();

export const handler = eventHandler(
  { name: 'RegistrationRequested', detail: registrationRequested },
  async (detail) => {
    const { registrationId } = detail;
    const stored = await store.getRequest(registrationId);
    if (!stored) {
      // Past its TTL (a replay long after the fact) or erased on request: nothing left to do.
      logger.warn('registration request not found; event dropped', { registrationId });
      countMetric('InvalidEventDropped');
      return;
    }
    const directory = await getUserDirectory('auth0Registration');
    const register = registerOrganization({
      users: directory,
      organizations: directory,
      organizationRecords,
      store,
      profiles,
      ledger,
      recordAgreements: (input) => recordRegistrationAgreements({ ledger }, input),
      mailer,
      limiter,
      events,
      clock: systemClock,
      appUrl,
      issuer,
      inProgress,
    });
    const result = await register(stored.request, stored.context);
    switch (result.outcome) {
      case 'account_exists':
        logger.info('registration for an address that has an account', {
          registrationId,
          email: maskEmail(stored.email),
        });
        break;
      case 'account_exists_not_emailed':
        logger.warn('public email over its per-recipient limit: not sent', {
          kind: 'account-exists-email',
          registrationId,
          email: maskEmail(stored.email),
        });
        countMetric('PublicEmailSuppressed');
        break;
      case 'login_instructions_resent':
        logger.info('login instructions resent to an address whose password link was never used', {
          registrationId,
          email: maskEmail(stored.email),
        });
        break;
      case 'registered':
        countMetric('RegistrationSubmitted');
        logger.info('registration completed', { registrationId, userId: result.userId });
        break;
    }
  },
);
