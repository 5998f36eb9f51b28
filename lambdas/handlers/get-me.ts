import { getUserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { tableName } from '#lambdas/config.ts';
import { getMe } from '#lambdas/domain/account/get-me.ts';
import { AccountNotFoundError } from '#lambdas/domain/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

const kyc = new DynamoDbKycStateReader(documentClient, tableName('kycState'));
const ledger = new DynamoDbConsentLedger(documentClient, tableName('consentLedger'));
const registrations = new DynamoDbRegistrationStore(documentClient, tableName('submissions'));

export const handler = httpHandler({ route: 'GetMe' }, async ({ caller }) => {
  const me = await getMe({ users: await getUserDirectory('auth0ReadUsers'), kyc, ledger, registrations })(
    caller.userId,
  );
  // A valid token for a deleted account: nothing to show.
  if (!me) throw new AccountNotFoundError();
  return { status: 200, body: me };
});
