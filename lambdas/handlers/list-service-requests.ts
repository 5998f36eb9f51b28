import { listServiceRequestsRoute, type ServiceRequestList } from '#contracts/service-request.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbServiceRequests } from '#lambdas/adapters/dynamodb-service-requests.ts';
import { tableName } from '#lambdas/config.ts';
import { listServiceRequests } from '#lambdas/domain/organization/service-requests.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

// The organization's service requests with their state (ADR 0088), for every member: the token's
// `org_id` checked, then one Query of the organization's request partition.

const list = listServiceRequests({
  requests: new DynamoDbServiceRequests(documentClient, tableName('submissions')),
});

export const handler = httpHandler({ route: listServiceRequestsRoute }, async ({ event, caller }) => {
  const organizationId = event.pathParameters?.organizationId ?? '';
  const requests = await list({ caller, organizationId });
  return { status: 200, body: { requests } satisfies ServiceRequestList };
});
