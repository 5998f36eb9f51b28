import { getOrganizationRoute, type OrganizationResponse } from '#contracts/organization-workspace.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbOrganizations } from '#lambdas/adapters/dynamodb-organizations.ts';
import { tableName } from '#lambdas/config.ts';
import { requireOrganization } from '#lambdas/domain/caller.ts';
import { OrganizationNotFoundError } from '#lambdas/domain/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

// The organization the caller signed in through (ADR 0083): its admins and members only, checked
// against the token's `org_id` before anything is read; then one GetItem, never Auth0 (ADR 0059).

const organizations = new DynamoDbOrganizations(documentClient, tableName('submissions'));

export const handler = httpHandler({ route: getOrganizationRoute }, async ({ event, caller }) => {
  const organizationId = event.pathParameters?.organizationId ?? '';
  const [role] = requireOrganization(caller, organizationId, ['org_admin', 'org_member']);
  const record = await organizations.get(organizationId);
  if (!record || !role) throw new OrganizationNotFoundError();
  return {
    status: 200,
    body: {
      organizationId,
      name: record.displayName,
      organizationType: record.organizationType,
      role,
    } satisfies OrganizationResponse,
  };
});
