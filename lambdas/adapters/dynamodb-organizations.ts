import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type OrganizationType, organizationTypes } from '#contracts/organization.ts';
import type { OrganizationRecord, OrganizationRecords } from '#lambdas/domain/ports.ts';
import { submissionKeyPrefixes } from '#lambdas/tables.ts';

// The organizations registration created (ADR 0083), in the submissions table:
// `{pk: 'ORGANIZATION#<org_id>', sk: 'ORGANIZATION'}`. Written once; read by GET
// /api/organizations/{organizationId} with one strongly consistent GetItem.

export const organizationKey = (organizationId: string) => ({
  pk: `${submissionKeyPrefixes.organization}${organizationId}`,
  sk: 'ORGANIZATION',
});

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export class DynamoDbOrganizations implements OrganizationRecords {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async saveOnce(record: OrganizationRecord): Promise<void> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...organizationKey(record.organizationId), kind: 'organization', ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async get(organizationId: string): Promise<OrganizationRecord | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: organizationKey(organizationId),
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    const type = organizationTypes.find((candidate) => candidate === Item.organizationType);
    if (!type) return undefined;
    return {
      organizationId,
      displayName: text(Item.displayName),
      organizationType: type as OrganizationType,
      registeredBy: text(Item.registeredBy),
      email: text(Item.email),
      createdAt: text(Item.createdAt),
    };
  }
}
