import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createManagementApi } from '#lambdas/adapters/auth0-management-api.ts';
import { Auth0UserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { DynamoDbRetention } from '#lambdas/adapters/dynamodb-retention.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import {
  createPersonaClient,
  PersonaApiError,
  type PersonaClient,
} from '#lambdas/adapters/persona-client.ts';
import type { EraseDeps } from '#lambdas/domain/data-rights/erase.ts';
import type { InquiryRedactor } from '#lambdas/domain/data-rights/ports.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import type { EraseConfig } from './config.ts';

/** Persona's redaction through the shared client; an inquiry Persona no longer has counts as redacted. */
export class PersonaInquiryRedactor implements InquiryRedactor {
  constructor(private readonly client: Pick<PersonaClient, 'redactInquiry'>) {}

  async redactInquiry(inquiryId: string): Promise<void> {
    try {
      await this.client.redactInquiry(inquiryId);
    } catch (error) {
      if (error instanceof PersonaApiError && error.status === 404) return;
      throw error;
    }
  }
}

export function buildEraseDeps(config: EraseConfig): EraseDeps & { close(): void } {
  const raw = new DynamoDBClient({
    ...(config.dynamodb.endpoint ? { endpoint: config.dynamodb.endpoint } : {}),
    ...(config.dynamodb.region ? { region: config.dynamodb.region } : {}),
    ...(config.dynamodb.credentials ? { credentials: config.dynamodb.credentials } : {}),
  });
  const client = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  const submissions = new DynamoDbSubmissionStore(client, config.dynamodb.tables.submissions);
  return {
    requests: submissions,
    submissions,
    users: new Auth0UserDirectory(createManagementApi(config.auth0)),
    kyc: new DynamoDbKycStore(client, config.dynamodb.tables.kycState),
    consents: new DynamoDbConsentLedger(client, config.dynamodb.tables.consentLedger),
    persona: new PersonaInquiryRedactor(
      createPersonaClient({
        baseUrl: config.persona.url,
        apiKey: async () => config.persona.apiKey,
        timeoutMs: 15_000,
      }),
    ),
    retention: new DynamoDbRetention(client, {
      consentLedger: config.dynamodb.tables.consentLedger,
      kycState: config.dynamodb.tables.kycState,
    }),
    accounts: new DynamoDbUserProfiles(client, config.dynamodb.tables.submissions),
    clock: systemClock,
    trail: new DynamoDbAdminAuditLog(client, config.dynamodb.tables.adminAuditLog),
    operatorId: config.operatorId,
    close: () => raw.destroy(),
  };
}
