import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { StackInfo } from '#local/stack.ts';

/** A document client on the stack's DynamoDB Local, for asserting what was (not) written. */
export function stackDb(stack: StackInfo) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.dynamodb.endpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
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
