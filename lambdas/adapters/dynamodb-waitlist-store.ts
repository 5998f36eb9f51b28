import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { WaitlistEntry, WaitlistStore } from '#lambdas/domain/ports.ts';

export const waitlistKey = (email: string) => ({ pk: `WAITLIST#${email}`, sk: 'WAITLIST' });

export class DynamoDbWaitlistStore implements WaitlistStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async addOnce(entry: WaitlistEntry): Promise<'added' | 'exists'> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...waitlistKey(entry.email),
            kind: 'waitlist',
            email: entry.email,
            createdAt: entry.joinedAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return 'added';
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'exists';
      throw error;
    }
  }
}
