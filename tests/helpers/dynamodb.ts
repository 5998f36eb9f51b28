import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import { kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { type TableKey, tables } from '#lambdas/tables.ts';
import { createTableInput, localCredentials } from '#local/dynamodb.ts';
import type { StackInfo } from '#local/stack.ts';

/** A document client on a DynamoDB Local (one a test started, or the stack's). */
export function localDocumentClient(endpoint: string): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'eu-central-1', credentials: localCredentials }),
  );
}

/** Creates the product's tables under these names on a DynamoDB Local (a test's fresh set). */
export async function createTables(
  endpoint: string,
  names: Partial<Record<TableKey, string>>,
): Promise<void> {
  const admin = new DynamoDBClient({ endpoint, region: 'eu-central-1', credentials: localCredentials });
  try {
    for (const [key, name] of Object.entries(names) as [TableKey, string][])
      await admin.send(new CreateTableCommand(createTableInput(tables[key], name)));
  } finally {
    admin.destroy();
  }
}

/** A document client on the stack's DynamoDB Local, for asserting what was (not) written. */
export function stackDb(stack: StackInfo) {
  const client = localDocumentClient(stack.dynamodb.endpoint);
  const tableName = (logicalName: string) => {
    const name = stack.dynamodb.tables[logicalName];
    if (!name) throw new Error(`stack.json has no table ${logicalName}`);
    return name;
  };
  return {
    client,
    tableName,
    /** The user's KYC state item as stored (strongly consistent). */
    async kycState(userId: string) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName('KycState'), Key: kycStateKey(userId), ConsistentRead: true }),
      );
      return Item;
    },
    /** The user's KYC history items (one per status transition), oldest first. */
    async kycHistory(userId: string) {
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: tableName('KycState'),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :history)',
          ExpressionAttributeValues: { ':pk': kycStateKey(userId).pk, ':history': 'HISTORY#' },
          ConsistentRead: true,
        }),
      );
      return Items;
    },
    /** The outbox items (KycStatusChanged events to publish) of the user. */
    async kycOutbox(userId: string) {
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: tableName('KycState'),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'OUTBOX' },
          ConsistentRead: true,
        }),
      );
      return Items.filter((item) => item.detail?.userId === userId);
    },
    /** The person's verification as Persona's approval leaves it in the KYC table (decided). */
    async approve(userId: string) {
      await client.send(
        new PutCommand({
          TableName: tableName('KycState'),
          Item: {
            ...kycStateKey(userId),
            status: 'approved',
            updatedAt: new Date().toISOString(),
            inquiryId: `inq_${randomBytes(6).toString('hex')}`,
            attempt: 1,
          },
        }),
      );
    },
    async scan(logicalName: string) {
      const result = await client.send(
        new ScanCommand({ TableName: tableName(logicalName), ConsistentRead: true }),
      );
      return result.Items ?? [];
    },
  };
}
