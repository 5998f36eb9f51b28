import { type ListVerificationsResponse, listVerificationsRoute } from '#contracts/admin-verifications.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycAdminQueue } from '#lambdas/adapters/dynamodb-kyc-admin-queue.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { tableName } from '#lambdas/config.ts';
import { listVerifications } from '#lambdas/domain/kyc/list-verifications.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

const list = listVerifications({
  store: new DynamoDbKycAdminQueue(documentClient, tableName('kycState')),
  registrations: new DynamoDbRegistrationStore(documentClient, tableName('submissions')),
});

export const handler = httpHandler({ route: listVerificationsRoute }, async ({ query }) => {
  const body: ListVerificationsResponse = await list(query);
  return { status: 200, body };
});
