import { type ConsentHistory, listMyConsentsRoute } from '#contracts/consent.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { tableName } from '#lambdas/config.ts';
import { listMyConsents } from '#lambdas/domain/consent/list-my-consents.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

const list = listMyConsents({
  ledger: new DynamoDbConsentLedger(documentClient, tableName('consentLedger')),
});

export const handler = httpHandler({ route: listMyConsentsRoute }, async ({ caller }) => ({
  status: 200,
  body: { records: await list(caller) } satisfies ConsentHistory,
}));
