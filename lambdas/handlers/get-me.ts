import { getMeRoute } from '#contracts/me.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { tableName } from '#lambdas/config.ts';
import { getMe } from '#lambdas/domain/account/get-me.ts';
import { AccountNotFoundError } from '#lambdas/domain/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

const me = getMe({
  profiles: new DynamoDbUserProfiles(documentClient, tableName('submissions')),
  kyc: new DynamoDbKycStateReader(documentClient, tableName('kycState')),
  ledger: new DynamoDbConsentLedger(documentClient, tableName('consentLedger')),
  deletions: new DynamoDbSubmissionStore(documentClient, tableName('submissions')),
});

export const handler = httpHandler({ route: getMeRoute }, async ({ caller }) => {
  const answer = await me(caller);
  // A valid token for an account the product erased: nothing to show.
  if (!answer) throw new AccountNotFoundError();
  return { status: 200, body: answer };
});
