import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { organizationTypes } from '#contracts/organization.ts';
import { type ServiceAction, serviceActions } from '#contracts/service-request.ts';
import type { ServiceRequestRecord, ServiceRequests } from '#lambdas/domain/organization/service-requests.ts';
import { submissionKeyPrefixes } from '#lambdas/tables.ts';

// An organization's service requests (ADR 0088) in the submissions table, in a partition of their
// own (`SERVICE_REQUEST#<org_id>`), one item per quick action (sk: the action's id): the
// conditional put is what keeps one open request per action and organization; the list is one
// Query. Apart from `ORGANIZATION#`, so the request functions are granted nothing of the team.

const serviceRequestKey = (organizationId: string, action: ServiceAction) => ({
  pk: `${submissionKeyPrefixes.serviceRequest}${organizationId}`,
  sk: action,
});

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function toRecord(item: Record<string, unknown>): ServiceRequestRecord | undefined {
  const action = Object.keys(serviceActions).find((id) => id === item.sk) as ServiceAction | undefined;
  const type = organizationTypes.find((candidate) => candidate === item.organizationType);
  if (!action || !type) return undefined;
  return {
    requestId: text(item.requestId),
    action,
    status: 'received',
    requestedAt: text(item.requestedAt),
    answerBy: text(item.answerBy),
    organizationId: text(item.organizationId),
    organizationName: text(item.organizationName),
    organizationType: type,
    requestedBy: text(item.requestedBy),
    queued: item.queued === true,
  };
}

export class DynamoDbServiceRequests implements ServiceRequests {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Whether the organization's records say the caller was removed (their `MEMBER#<sub>` item in the
   * organization's partition, ADR 0084): one strongly consistent GetItem. The registrant has no
   * item until their membership changes.
   */
  async memberRemoved(organizationId: string, userId: string): Promise<boolean> {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: `${submissionKeyPrefixes.organization}${organizationId}`, sk: `MEMBER#${userId}` },
        ConsistentRead: true,
      }),
    );
    return Item?.memberStatus === 'removed';
  }

  async createOnce(record: ServiceRequestRecord) {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...serviceRequestKey(record.organizationId, record.action),
            kind: 'service-request',
            ...record,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { created: true, record };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: serviceRequestKey(record.organizationId, record.action),
        ConsistentRead: true,
      }),
    );
    const stored = Item ? toRecord(Item) : undefined;
    // Gone between the put and the read: nothing the request could answer with but itself.
    return { created: false, record: stored ?? record };
  }

  async markQueued(organizationId: string, action: ServiceAction): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: serviceRequestKey(organizationId, action),
        UpdateExpression: 'SET queued = :true',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':true': true },
      }),
    );
  }

  async list(organizationId: string): Promise<ServiceRequestRecord[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `${submissionKeyPrefixes.serviceRequest}${organizationId}` },
        ConsistentRead: true,
      }),
    );
    return Items.flatMap((item) => toRecord(item) ?? []);
  }
}
