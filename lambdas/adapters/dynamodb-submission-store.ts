import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type {
  DeletedEntry,
  DeletionRequests,
  ErasureOutcome,
  StoredDeletionRequest,
  SubmissionRef,
  SubmissionsByEmail,
  SubmissionsOfAddress,
} from '#lambdas/domain/data-rights/ports.ts';
import type {
  DeletionConfirmations,
  DeletionRequestRecord,
  OwnDeletionRequests,
  SubmissionRecord,
  SubmissionStore,
} from '#lambdas/domain/submissions/ports.ts';
import { submissionKeyPrefixes } from '#lambdas/tables.ts';

// The submissions table (lambdas/tables.ts) for the public forms and for erasure. Lambda roles
// only get PutItem on it (routes.ts); the erase methods need the operator's credentials.

export const byEmailIndex = 'byEmail';

export function submissionKey(record: SubmissionRecord): { pk: string; sk: string } {
  switch (record.kind) {
    case 'waitlist':
      // Keyed by the address: joining twice keeps one entry.
      return { pk: `WAITLIST#${record.email}`, sk: 'WAITLIST' };
    case 'investor_inquiry':
      return { pk: `INVESTOR_INQUIRY#${record.id}`, sk: 'INQUIRY' };
    case 'contact_message':
      return { pk: `CONTACT#${record.id}`, sk: 'MESSAGE' };
    case 'cookie_consent':
      // One item per consent id and banner revision: a resent choice is stored once.
      return { pk: `COOKIE_CONSENT#${record.consentId}`, sk: `REVISION#${record.revision}` };
    case 'deletion_request':
      return deletionRequestKey(record.requestId);
  }
}

export const deletionRequestKey = (requestId: string) => ({
  pk: `${submissionKeyPrefixes.deletionRequest}${requestId}`,
  sk: 'REQUEST',
});

/**
 * The account's pointer to its pending own request (ADR 0076), under the requests' prefix so the
 * functions granted that prefix alone reach it; it holds no address (the byEmail index skips it).
 */
export const ownDeletionPointerKey = (userId: string) => ({
  pk: `${submissionKeyPrefixes.deletionRequest}OWN#${userId}`,
  sk: 'PENDING',
});

const pendingStatuses: readonly string[] = ['received', 'in_progress'];

function toItem(record: SubmissionRecord): Record<string, unknown> {
  return { ...submissionKey(record), ...record };
}

export class DynamoDbSubmissionStore
  implements
    SubmissionStore,
    DeletionConfirmations,
    DeletionRequests,
    SubmissionsByEmail,
    SubmissionsOfAddress,
    OwnDeletionRequests
{
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async addOnce(record: SubmissionRecord): Promise<'added' | 'exists'> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: toItem(record),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return 'added';
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'exists';
      throw error;
    }
  }

  async confirm(
    requestId: string,
    confirmation: { tokenHash: string; now: string; dueBy: string },
  ): Promise<DeletionRequestRecord | undefined> {
    try {
      const answer = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: deletionRequestKey(requestId),
          // Removing the hash makes the token single-use; removing expiresAt keeps the request.
          UpdateExpression:
            'SET #status = :received, confirmedAt = :now, confirmedBy = :by, dueBy = :dueBy REMOVE confirmationTokenHash, expiresAt',
          ConditionExpression:
            'attribute_exists(pk) AND #status = :unconfirmed AND confirmationTokenHash = :hash AND confirmBy > :now',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':received': 'received',
            ':unconfirmed': 'unconfirmed',
            ':hash': confirmation.tokenHash,
            ':now': confirmation.now,
            ':by': 'email_link',
            ':dueBy': confirmation.dueBy,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return answer.Attributes as DeletionRequestRecord | undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async get(requestId: string): Promise<StoredDeletionRequest | undefined> {
    const answer = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: deletionRequestKey(requestId), ConsistentRead: true }),
    );
    return answer.Item as StoredDeletionRequest | undefined;
  }

  private async pointerOf(userId: string): Promise<string | undefined> {
    const answer = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: ownDeletionPointerKey(userId), ConsistentRead: true }),
    );
    return typeof answer.Item?.requestId === 'string' ? answer.Item.requestId : undefined;
  }

  async pendingOf(userId: string): Promise<DeletionRequestRecord | undefined> {
    const requestId = await this.pointerOf(userId);
    return requestId === undefined ? undefined : this.pendingById(userId, requestId);
  }

  async pendingById(userId: string, requestId: string): Promise<DeletionRequestRecord | undefined> {
    const request = await this.get(requestId);
    return request && pendingStatuses.includes(request.status) && request.userId === userId
      ? (request as DeletionRequestRecord)
      : undefined;
  }

  async addOwn(record: DeletionRequestRecord & { userId: string }): Promise<DeletionRequestRecord> {
    // A pointer left by a request carried out or gone may be replaced, by the id it holds.
    let stale: string | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.tableName,
                  Item: { ...ownDeletionPointerKey(record.userId), requestId: record.requestId },
                  ConditionExpression:
                    stale === undefined
                      ? 'attribute_not_exists(pk)'
                      : 'attribute_not_exists(pk) OR requestId = :stale',
                  ...(stale === undefined ? {} : { ExpressionAttributeValues: { ':stale': stale } }),
                },
              },
              {
                Put: {
                  TableName: this.tableName,
                  Item: toItem(record),
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        );
        return record;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        // One read of the pointer: it names the pending request to answer, or a stale one to replace.
        stale = await this.pointerOf(record.userId);
        const pending = stale === undefined ? undefined : await this.pendingById(record.userId, stale);
        if (pending) return pending;
      }
    }
    throw new Error('the own deletion request could not be stored: its pointer keeps changing');
  }

  async cancelOwn(
    userId: string,
    requestId: string,
    now: string,
  ): Promise<'cancelled' | 'not_found' | 'not_cancellable'> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.tableName,
                Key: ownDeletionPointerKey(userId),
                ConditionExpression: 'requestId = :id',
                ExpressionAttributeValues: { ':id': requestId },
              },
            },
            {
              // Kept, marked: the request and its withdrawal are the record of what was asked.
              Update: {
                TableName: this.tableName,
                Key: deletionRequestKey(requestId),
                UpdateExpression: 'SET #status = :cancelled, cancelledAt = :now',
                ConditionExpression: '#status = :received AND userId = :user',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':cancelled': 'cancelled',
                  ':received': 'received',
                  ':user': userId,
                  ':now': now,
                },
              },
            },
          ],
        }),
      );
      return 'cancelled';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const pending = await this.pendingOf(userId);
      return pending?.requestId === requestId ? 'not_cancellable' : 'not_found';
    }
  }

  async markInProgress(
    requestId: string,
    progress: { userIds: string[]; planned: DeletedEntry[]; startedAt: string },
  ): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: deletionRequestKey(requestId),
        UpdateExpression:
          'SET #status = :status, userIds = :userIds, planned = :planned, startedAt = :startedAt',
        ConditionExpression: 'attribute_exists(pk) AND #status <> :completed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': 'in_progress',
          ':completed': 'completed',
          ':userIds': progress.userIds,
          ':planned': progress.planned,
          ':startedAt': progress.startedAt,
        },
      }),
    );
  }

  async complete(requestId: string, outcome: ErasureOutcome, expiresAt: number): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: deletionRequestKey(requestId),
        UpdateExpression:
          'SET #status = :status, deleted = :deleted, kept = :kept, completedAt = :completedAt, expiresAt = :expiresAt',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': 'completed',
          ':deleted': outcome.deleted,
          ':kept': outcome.kept,
          ':completedAt': outcome.completedAt,
          ':expiresAt': expiresAt,
        },
      }),
    );
  }

  async listByEmail(email: string): Promise<SubmissionRef[]> {
    const refs: SubmissionRef[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: byEmailIndex,
          KeyConditionExpression: '#email = :email',
          ExpressionAttributeValues: { ':email': email },
          ProjectionExpression: '#pk, #sk, #kind, #createdAt',
          ExpressionAttributeNames: {
            '#email': 'email',
            '#pk': 'pk',
            '#sk': 'sk',
            '#kind': 'kind',
            '#createdAt': 'createdAt',
          },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        refs.push({
          pk: String(item.pk),
          sk: String(item.sk),
          kind: typeof item.kind === 'string' ? item.kind : 'unknown',
          createdAt: typeof item.createdAt === 'string' ? item.createdAt : undefined,
        });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return refs;
  }

  async itemsByEmail(email: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: byEmailIndex,
          KeyConditionExpression: '#email = :email',
          ExpressionAttributeNames: { '#email': 'email' },
          ExpressionAttributeValues: { ':email': email },
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  async delete(key: { pk: string; sk: string }): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: key.pk, sk: key.sk } }));
  }
}
