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
import { profileKeyPrefix, submissionKeyPrefixes } from '#lambdas/tables.ts';

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

/**
 * An invited member's organization, from the profile joining wrote (ADR 0084): they registered
 * nothing, but reviewers see their organization, and four-eyes knows its type (ADR 0080).
 */
function fromMemberProfile(item: Record<string, unknown>, userId: string): RegistrationRecord | undefined {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  if (typeof item.organizationId !== 'string' || typeof item.organizationType !== 'string') return undefined;
  return {
    userId,
    email: text(item.email),
    responsibleName: text(item.name),
    responsibleTitle: '',
    responsiblePhone: '',
    organizationName: text(item.organizationName),
    organizationUrl: '',
    organizationType: item.organizationType as RegistrationRecord['organizationType'],
    organizationId: item.organizationId,
    createdAt: text(item.createdAt),
  };
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

  /**
   * Many users' registrations in as few BatchGetItem calls as possible (the admin queue), with
   * each user's profile in the same calls: an invited member has no registration, and their
   * profile names their organization (ADR 0084).
   */
  async getRegistrations(userIds: readonly string[]): Promise<Map<string, RegistrationRecord>> {
    const found = new Map<string, RegistrationRecord>();
    const members = new Map<string, RegistrationRecord>();
    const unique = [...new Set(userIds)];
    const chunks: string[][] = [];
    const perCall = batchGetMaxKeys / 2;
    for (let start = 0; start < unique.length; start += perCall) {
      chunks.push(unique.slice(start, start + perCall));
    }
    const profilePk = (userId: string) => `${profileKeyPrefix}${userId}`;
    await Promise.all(
      chunks.map(async (chunk) => {
        let keys: Record<string, unknown>[] = chunk.flatMap((userId) => [
          registrationKey(userId),
          { pk: profilePk(userId), sk: 'PROFILE' },
        ]);
        for (let round = 0; keys.length > 0; round++) {
          if (round === batchGetMaxRounds) {
            throw new Error(`BatchGetItem left ${keys.length} registrations unprocessed`);
          }
          if (round > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** (round - 1)));
          const output: BatchGetCommandOutput = await this.client.send(
            new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys } } }),
          );
          for (const item of output.Responses?.[this.tableName] ?? []) {
            const pk = String(item.pk);
            if (pk.startsWith(profileKeyPrefix)) {
              const userId = pk.slice(profileKeyPrefix.length);
              const member = fromMemberProfile(item, userId);
              if (member) members.set(userId, member);
              continue;
            }
            const record = toRegistration(item);
            found.set(record.userId, record);
          }
          keys = output.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
        }
      }),
    );
    for (const [userId, member] of members) if (!found.has(userId)) found.set(userId, member);
    return found;
  }
}
