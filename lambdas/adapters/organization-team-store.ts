import { tableName } from '#lambdas/config.ts';
import type { OrganizationTeamDirectory } from '#lambdas/domain/ports.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { organizationTeamDirectory } from './auth0-organization-team.ts';
import { DynamoDbAdminAuditLog } from './dynamodb-admin-audit-log.ts';
import { documentClient } from './dynamodb-client.ts';
import { DynamoDbKycStateReader } from './dynamodb-kyc-state-reader.ts';
import { DynamoDbOrganizationTeams } from './dynamodb-organization-teams.ts';
import { DynamoDbRateLimiter } from './dynamodb-rate-limiter.ts';

// The team's store and the trail's head as every team handler builds them (ADR 0084): the
// organization's partition in the submissions table, entries appended in the change's transaction.

export function organizationTeamStore(options: { kyc?: boolean; audit?: boolean } = {}) {
  const auditTable = options.audit ? tableName('adminAuditLog') : undefined;
  return {
    teams: new DynamoDbOrganizationTeams(documentClient, tableName('submissions'), {
      ...(options.kyc ? { kycTable: tableName('kycState') } : {}),
      ...(auditTable ? { auditTable } : {}),
    }),
    audit: auditTable
      ? new DynamoDbAdminAuditLog(documentClient, auditTable)
      : { head: async () => undefined },
  };
}

/**
 * The organization-team application's directory, built on first use (its secret read then) and
 * again after a failed build: a cold start that only refuses a request reads no secret.
 */
export function teamDirectory(): OrganizationTeamDirectory {
  let built: Promise<OrganizationTeamDirectory> | undefined;
  const directory = (): Promise<OrganizationTeamDirectory> => {
    const pending =
      built ??
      organizationTeamDirectory().catch((error: unknown) => {
        built = undefined;
        throw error;
      });
    built = pending;
    return pending;
  };
  return {
    createInvitation: async (input) => (await directory()).createInvitation(input),
    deleteInvitation: async (organizationId, invitationId) =>
      (await directory()).deleteInvitation(organizationId, invitationId),
    setMemberRole: async (organizationId, userId, role) =>
      (await directory()).setMemberRole(organizationId, userId, role),
    removeMember: async (organizationId, userId) => (await directory()).removeMember(organizationId, userId),
  };
}

/**
 * What an invitation and a resend need besides Auth0 (each handler names `teamDirectory()` itself,
 * as the platform test reads its secret from the handler's source): the team, the trail, the
 * inviter's approval and both budgets.
 */
export function invitationDeps() {
  return {
    ...organizationTeamStore({ audit: true }),
    kyc: new DynamoDbKycStateReader(documentClient, tableName('kycState')),
    limiter: new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock),
    clock: systemClock,
  };
}
