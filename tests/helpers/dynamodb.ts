import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { localCredentials } from '#local/dynamodb.ts';
import type { StackInfo } from '#local/stack.ts';

/** A document client on a DynamoDB Local (one a test started, or the stack's). */
export function localDocumentClient(endpoint: string): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'eu-central-1', credentials: localCredentials }),
  );
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
    async scan(logicalName: string) {
      const result = await client.send(
        new ScanCommand({ TableName: tableName(logicalName), ConsistentRead: true }),
      );
      return result.Items ?? [];
    },
  };
}
