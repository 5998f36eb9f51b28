import { exportMyDataRoute } from '#contracts/data-export.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycAdminQueue } from '#lambdas/adapters/dynamodb-kyc-admin-queue.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { tableName } from '#lambdas/config.ts';
import { exportMyData } from '#lambdas/domain/data-rights/export-my-data.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const submissions = tableName('submissions');
const exportData = exportMyData({
  profiles: new DynamoDbUserProfiles(documentClient, submissions),
  registrations: new DynamoDbRegistrationStore(documentClient, submissions),
  ledger: new DynamoDbConsentLedger(documentClient, tableName('consentLedger')),
  kyc: new DynamoDbKycStateReader(documentClient, tableName('kycState')),
  kycHistory: new DynamoDbKycAdminQueue(documentClient, tableName('kycState')),
  submissions: new DynamoDbSubmissionStore(documentClient, submissions),
  limiter: new DynamoDbRateLimiter(documentClient, submissions, systemClock),
  clock: systemClock,
});

export const handler = httpHandler({ route: exportMyDataRoute }, async ({ caller }) => {
  const document = await exportData(caller);
  logger.info('personal data exported', {
    consents: document.consents.length,
    kycHistory: document.kyc.history.length,
    submissions: document.submissions.length,
  });
  countMetric('DataExported');
  return {
    status: 200,
    headers: {
      // A download, never rendered (the wrapper's `cache-control: no-store` keeps it out of caches).
      'content-disposition': `attachment; filename="my-data-${document.generatedAt.slice(0, 10)}.json"`,
    },
    body: document,
  };
});
