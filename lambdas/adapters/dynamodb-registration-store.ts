import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type {
  RegistrationProgress,
  RegistrationRecord,
  RegistrationStore,
} from '#lambdas/domain/registration/ports.ts';

// Registrations in the submissions table. Both items carry `email`, so the byEmail index finds
// them for a data-deletion request.

export const registrationKey = (userId: string) => ({ pk: `REGISTRATION#${userId}`, sk: 'REGISTRATION' });
export const registrationProgressKey = (email: string) => ({
  pk: `REGISTRATION_PROGRESS#${email}`,
  sk: 'PROGRESS',
});

export class DynamoDbRegistrationStore implements RegistrationStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getProgress(email: string): Promise<RegistrationProgress | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: registrationProgressKey(email),
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    return {
      email: Item.email as string,
      startedAt: Item.startedAt as string,
      ...(typeof Item.userId === 'string' ? { userId: Item.userId } : {}),
      ...(Item.agreementsRecorded === true ? { agreementsRecorded: true } : {}),
      ...(Item.loginEmailSent === true ? { loginEmailSent: true } : {}),
      ...(Item.eventPublished === true ? { eventPublished: true } : {}),
      ...(typeof Item.completedAt === 'string' ? { completedAt: Item.completedAt } : {}),
    };
  }

  async saveProgress(progress: RegistrationProgress): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...registrationProgressKey(progress.email), kind: 'registration-progress', ...progress },
      }),
    );
  }

  async saveRegistrationOnce(record: RegistrationRecord): Promise<RegistrationRecord> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...registrationKey(record.userId), kind: 'registration', ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return record;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const stored = await this.getRegistration(record.userId);
      if (!stored) throw error;
      return stored;
    }
  }

  async getRegistration(userId: string): Promise<RegistrationRecord | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: registrationKey(userId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, kind: _kind, ...record } = Item;
    return record as RegistrationRecord;
  }
}
