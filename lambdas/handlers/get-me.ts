import type { MeResponse } from '#contracts/me.ts';
import { DirectoryUnavailableError, getUserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { tableName } from '#lambdas/config.ts';
import { getMe } from '#lambdas/domain/account/get-me.ts';
import { HttpError, NotFoundError } from '#lambdas/http/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

const kyc = new DynamoDbKycStateReader(documentClient, tableName('kycState'));
const ledger = new DynamoDbConsentLedger(documentClient, tableName('consentLedger'));
const registrations = new DynamoDbRegistrationStore(documentClient, tableName('submissions'));

export const handler = httpHandler({ auth: 'user' }, async ({ caller }) => {
  let me: MeResponse | undefined;
  try {
    me = await getMe({ users: await getUserDirectory(), kyc, ledger, registrations })(caller.userId);
  } catch (error) {
    if (error instanceof DirectoryUnavailableError) {
      throw new HttpError(503, 'Service Unavailable', 'Please try again in a moment.', undefined, {
        'retry-after': '10',
      });
    }
    throw error;
  }
  // A valid token for a deleted account: nothing to show.
  if (!me) throw new NotFoundError('Your account no longer exists.');
  return { status: 200, body: me };
});
