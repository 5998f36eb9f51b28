import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { type KycStatus, kycStatuses } from '#contracts/kyc.ts';
import { type OrganizationRole, organizationRoles, organizationTypes } from '#contracts/organization.ts';
import type { StoredAuditEntry } from '#lambdas/domain/admin-audit/trail.ts';
import {
  type InvitationStatus,
  invitationRecordRetentionSeconds,
  type OrganizationTeams,
  type TeamInvitationRecord,
  type TeamMemberRecord,
  type TeamSnapshot,
} from '#lambdas/domain/organization/team.ts';
import type { OrganizationRecord } from '#lambdas/domain/ports.ts';
import { submissionKeyPrefixes } from '#lambdas/tables.ts';
import { auditEntryPut } from './dynamodb-admin-audit-log.ts';
import { kycStateKey } from './dynamodb-kyc-state-reader.ts';
import { profileKey } from './dynamodb-user-profiles.ts';

// An organization's team in the submissions table (ADR 0084), in the organization's partition
// beside its record (`ORGANIZATION#<org_id>`, sk `ORGANIZATION`):
// - `MEMBER#<sub>`: a member (`memberRole`, `memberStatus` active or removed);
// - `INVITATION#<normalised email>`: the address's latest invitation (`invitationStatus` pending,
//   accepted or revoked), never deleted by the product: a closed or expired one goes by TTL
//   (`expiresAt`) 30 days after its link stopped working.
// Both carry `email`, so the byEmail index finds them and an erasure of the address deletes them.
// Every change is one transaction with its admin-trail entry, conditioned on what was read.

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const partition = (organizationId: string) => `${submissionKeyPrefixes.organization}${organizationId}`;
const memberSk = (userId: string) => `MEMBER#${userId}`;
const invitationSk = (email: string) => `INVITATION#${email}`;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const oneOf = <T extends string>(allowed: readonly T[], value: unknown): T | undefined =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function toOrganization(
  item: Record<string, unknown>,
  organizationId: string,
): OrganizationRecord | undefined {
  const type = oneOf(organizationTypes, item.organizationType);
  if (!type) return undefined;
  return {
    organizationId,
    displayName: text(item.displayName),
    organizationType: type,
    registeredBy: text(item.registeredBy),
    email: text(item.email),
    createdAt: text(item.createdAt),
  };
}

function toMember(item: Record<string, unknown>): TeamMemberRecord | undefined {
  const role = oneOf<OrganizationRole>(organizationRoles, item.memberRole);
  if (!role || typeof item.userId !== 'string') return undefined;
  return {
    userId: item.userId,
    email: text(item.email),
    role,
    emailVerified: item.emailVerified === true,
    joinedAt: text(item.joinedAt),
    status: item.memberStatus === 'removed' ? 'removed' : 'active',
    ...(typeof item.removedAt === 'string' ? { removedAt: item.removedAt } : {}),
    ...(typeof item.removedBy === 'string' ? { removedBy: item.removedBy } : {}),
  };
}

const invitationStatuses: readonly InvitationStatus[] = ['pending', 'accepted', 'revoked'];

function toInvitation(item: Record<string, unknown>): TeamInvitationRecord | undefined {
  const role = oneOf<OrganizationRole>(organizationRoles, item.invitationRole);
  const status = oneOf(invitationStatuses, item.invitationStatus);
  if (!role || !status || typeof item.invitationId !== 'string') return undefined;
  return {
    invitationId: item.invitationId,
    email: text(item.email),
    role,
    invitedBy: text(item.invitedBy),
    invitedAt: text(item.invitedAt),
    expiresAt: text(item.invitationExpiresAt),
    status,
    ...(typeof item.closedAt === 'string' ? { closedAt: item.closedAt } : {}),
  };
}

function memberItem(organizationId: string, member: TeamMemberRecord): Record<string, unknown> {
  return {
    pk: partition(organizationId),
    sk: memberSk(member.userId),
    kind: 'organization-member',
    organizationId,
    userId: member.userId,
    email: member.email,
    memberRole: member.role,
    emailVerified: member.emailVerified,
    joinedAt: member.joinedAt,
    memberStatus: member.status,
    ...(member.removedAt ? { removedAt: member.removedAt } : {}),
    ...(member.removedBy ? { removedBy: member.removedBy } : {}),
  };
}

function invitationItem(organizationId: string, invitation: TeamInvitationRecord): Record<string, unknown> {
  return {
    pk: partition(organizationId),
    sk: invitationSk(invitation.email),
    kind: 'organization-invitation',
    organizationId,
    invitationId: invitation.invitationId,
    email: invitation.email,
    invitationRole: invitation.role,
    invitedBy: invitation.invitedBy,
    invitedAt: invitation.invitedAt,
    invitationExpiresAt: invitation.expiresAt,
    invitationStatus: invitation.status,
    ...(invitation.closedAt ? { closedAt: invitation.closedAt } : {}),
    // Kept a while after its link stopped working (the team page shows it as expired), then gone.
    expiresAt: epochSeconds(invitation.expiresAt) + invitationRecordRetentionSeconds,
  };
}

/** An erased account's profile stays as the erasure left it (ADR 0077). */
const profileNotErased = 'attribute_not_exists(erasedAt)';

export class DynamoDbOrganizationTeams implements OrganizationTeams {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: { kycTable?: string; auditTable?: string } = {},
  ) {}

  async load(organizationId: string): Promise<TeamSnapshot | undefined> {
    const items: Record<string, unknown>[] = [];
    let startKey: QueryCommandInput['ExclusiveStartKey'];
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': partition(organizationId) },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    const record = items.find((item) => item.sk === 'ORGANIZATION');
    const organization = record && toOrganization(record, organizationId);
    if (!organization) return undefined;
    const sk = (item: Record<string, unknown>) => text(item.sk);
    return {
      organization,
      memberRecords: items
        .filter((item) => sk(item).startsWith('MEMBER#'))
        .map(toMember)
        .filter((member) => member !== undefined),
      invitations: items
        .filter((item) => sk(item).startsWith('INVITATION#'))
        .map(toInvitation)
        .filter((invitation) => invitation !== undefined),
    };
  }

  saveInvitation(input: {
    organizationId: string;
    invitation: TeamInvitationRecord;
    expected: { invitationId: string | null };
    audit: StoredAuditEntry;
  }): Promise<'saved' | 'conflict'> {
    const { expected } = input;
    return this.transact([
      {
        Put: {
          TableName: this.tableName,
          Item: invitationItem(input.organizationId, input.invitation),
          ...(expected.invitationId === null
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'invitationId = :expected',
                ExpressionAttributeValues: { ':expected': expected.invitationId },
              }),
        },
      },
      this.auditPut(input.audit),
    ]);
  }

  async acceptInvitation(input: {
    organization: OrganizationRecord;
    invitation: TeamInvitationRecord;
    member: TeamMemberRecord;
    name: string;
    audit: StoredAuditEntry;
  }): Promise<'saved' | 'conflict' | 'other-organization'> {
    const { organization, invitation, member } = input;
    const organizationId = organization.organizationId;
    const profileIndex = 2;
    const result = await this.transact(
      [
        {
          Put: {
            TableName: this.tableName,
            Item: invitationItem(organizationId, invitation),
            ConditionExpression: 'invitationId = :id AND invitationStatus = :pending',
            ExpressionAttributeValues: { ':id': invitation.invitationId, ':pending': 'pending' },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: memberItem(organizationId, member),
            ConditionExpression: 'attribute_not_exists(pk) OR memberStatus = :removed',
            ExpressionAttributeValues: { ':removed': 'removed' },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: profileKey(member.userId),
            // One account, one organization: this one, or one they were removed from.
            ConditionExpression:
              `${profileNotErased} AND (attribute_not_exists(organizationId) OR organizationId = :org ` +
              'OR attribute_exists(organizationRemovedAt))',
            UpdateExpression:
              'SET kind = :kind, userId = :userId, email = :email, #name = if_not_exists(#name, :name), ' +
              'organizationId = :org, organizationName = :orgName, organizationType = :orgType, ' +
              'organizationRole = :role, createdAt = if_not_exists(createdAt, :at), updatedAt = :at ' +
              'REMOVE organizationRemovedAt',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: {
              ':kind': 'profile',
              ':userId': member.userId,
              ':email': member.email,
              ':name': input.name,
              ':org': organizationId,
              ':orgName': organization.displayName,
              ':orgType': organization.organizationType,
              ':role': member.role,
              ':at': member.joinedAt,
            },
          },
        },
        this.auditPut(input.audit),
      ],
      profileIndex,
    );
    return result;
  }

  saveMember(input: {
    organizationId: string;
    member: TeamMemberRecord;
    expected: { role: OrganizationRole; status: 'active' } | null;
    audit: StoredAuditEntry;
  }): Promise<'saved' | 'conflict'> {
    const { organizationId, member, expected } = input;
    const removed = member.status === 'removed';
    return this.transact([
      {
        Put: {
          TableName: this.tableName,
          Item: memberItem(organizationId, member),
          ...(expected === null
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'memberRole = :role AND memberStatus = :active',
                ExpressionAttributeValues: { ':role': expected.role, ':active': 'active' },
              }),
        },
      },
      {
        // What GET /api/me answers: the role, or the removal that ends the session. A registrant
        // registered before profiles has only a registration item: this creates the profile item
        // with what it holds, and the registration still answers the rest.
        Update: {
          TableName: this.tableName,
          Key: profileKey(member.userId),
          ConditionExpression: profileNotErased,
          UpdateExpression: removed
            ? 'SET organizationId = if_not_exists(organizationId, :org), organizationRemovedAt = :at'
            : 'SET organizationId = if_not_exists(organizationId, :org), organizationRole = :role',
          ExpressionAttributeValues: removed
            ? { ':org': organizationId, ':at': member.removedAt ?? '' }
            : { ':org': organizationId, ':role': member.role },
        },
      },
      this.auditPut(input.audit),
    ]);
  }

  async kycStatuses(userIds: readonly string[]): Promise<Map<string, KycStatus>> {
    const table = this.options.kycTable;
    if (!table) throw new Error('Reading the members’ KYC statuses needs the store built with its kycTable.');
    const statuses = new Map<string, KycStatus>();
    const unique = [...new Set(userIds)];
    for (let start = 0; start < unique.length; start += 100) {
      let pending: Record<string, unknown>[] = unique.slice(start, start + 100).map(kycStateKey);
      for (let round = 0; pending.length > 0; round++) {
        if (round === 4) throw new Error('BatchGetItem left KYC states unprocessed');
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** round));
        const output = await this.client.send(
          new BatchGetCommand({
            RequestItems: {
              [table]: {
                Keys: pending,
                ProjectionExpression: 'pk, #status',
                ExpressionAttributeNames: { '#status': 'status' },
              },
            },
          }),
        );
        for (const item of output.Responses?.[table] ?? []) {
          const status = oneOf(kycStatuses, item.status);
          if (status) statuses.set(text(item.pk).replace(/^USER#/, ''), status);
        }
        pending = output.UnprocessedKeys?.[table]?.Keys ?? [];
      }
    }
    return statuses;
  }

  private auditPut(entry: StoredAuditEntry): TransactItem {
    if (!this.options.auditTable) throw new Error('A team change needs the store built with its auditTable.');
    return auditEntryPut(this.options.auditTable, entry);
  }

  /**
   * One transaction: 'conflict' when DynamoDB cancels it; 'other-organization' when the item at
   * `profileIndex` (a profile's condition) is what failed.
   */
  private async transact(items: TransactItem[]): Promise<'saved' | 'conflict'>;
  private async transact(
    items: TransactItem[],
    profileIndex: number,
  ): Promise<'saved' | 'conflict' | 'other-organization'>;
  private async transact(
    items: TransactItem[],
    profileIndex?: number,
  ): Promise<'saved' | 'conflict' | 'other-organization'> {
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
      return 'saved';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      if (profileIndex !== undefined && reasons[profileIndex]?.Code === 'ConditionalCheckFailed') {
        return 'other-organization';
      }
      return 'conflict';
    }
  }
}
