import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
} from '@aws-sdk/lib-dynamodb';
import type { RegistrationLookup } from '#lambdas/domain/kyc/ports.ts';
import type {
  RegistrationProgress,
  RegistrationRecord,
  RegistrationRequestRecord,
  RegistrationStore,
} from '#lambdas/domain/registration/ports.ts';
import { submissionKeyPrefixes } from '#lambdas/tables.ts';

// Registrations in the submissions table. Both items carry `email`, so the byEmail index finds
// them for a data-deletion request.

export const registrationKey = (userId: string) => ({
  pk: `${submissionKeyPrefixes.registration}${userId}`,
  sk: 'REGISTRATION',
});
export const registrationRequestKey = (registrationId: string) => ({
  pk: `REGISTRATION_REQUEST#${registrationId}`,
  sk: 'REQUEST',
});
export const registrationProgressKey = (email: string) => ({
  pk: `REGISTRATION_PROGRESS#${email}`,
  sk: 'PROGRESS',
});

function toRegistration(item: Record<string, unknown>): RegistrationRecord {
  const { pk: _pk, sk: _sk, kind: _kind, ...record } = item;
  return record as unknown as RegistrationRecord;
}

/** BatchGetItem takes at most 100 keys a call. */
const batchGetMaxKeys = 100;
/** Rounds for keys DynamoDB left unprocessed (throttling), with exponential backoff from 50 ms. */
const batchGetMaxRounds = 5;

export class DynamoDbRegistrationStore implements RegistrationStore, RegistrationLookup {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async saveRequest(record: RegistrationRequestRecord): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...registrationRequestKey(record.registrationId), kind: 'registration_request', ...record },
        // Ids are random: an existing item would be a bug, never something to overwrite.
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getRequest(registrationId: string): Promise<RegistrationRequestRecord | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: registrationRequestKey(registrationId),
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, kind: _kind, ...record } = Item;
    return record as RegistrationRequestRecord;
  }

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
    return Item ? toRegistration(Item) : undefined;
  }

  /** Many users' registrations in as few BatchGetItem calls as possible (the admin queue). */
  async getRegistrations(userIds: readonly string[]): Promise<Map<string, RegistrationRecord>> {
    const found = new Map<string, RegistrationRecord>();
    const unique = [...new Set(userIds)];
    const chunks: string[][] = [];
    for (let start = 0; start < unique.length; start += batchGetMaxKeys) {
      chunks.push(unique.slice(start, start + batchGetMaxKeys));
    }
    await Promise.all(
      chunks.map(async (chunk) => {
        let keys: Record<string, unknown>[] = chunk.map(registrationKey);
        for (let round = 0; keys.length > 0; round++) {
          if (round === batchGetMaxRounds) {
            throw new Error(`BatchGetItem left ${keys.length} registrations unprocessed`);
          }
          if (round > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** (round - 1)));
          const output: BatchGetCommandOutput = await this.client.send(
            new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys } } }),
          );
          for (const item of output.Responses?.[this.tableName] ?? []) {
            const record = toRegistration(item);
            found.set(record.userId, record);
          }
          keys = output.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
        }
      }),
    );
    return found;
  }
}
