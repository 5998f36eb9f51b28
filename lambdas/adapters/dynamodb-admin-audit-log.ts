import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  type AdminAuditEntry,
  type AdminAuditFacts,
  type AdminAuditLog,
  type AuditHead,
  adminAuditChain,
  chainEntry,
  type StoredAuditEntry,
} from '#lambdas/domain/admin-audit/trail.ts';
import { retentionAttribute } from '#lambdas/domain/consent/hash-chain.ts';
import { type Clock, systemClock } from '#lambdas/domain/ports.ts';
import { tables } from '#lambdas/tables.ts';
import { jitteredBackoff } from './append-backoff.ts';

// The admin audit trail in DynamoDB (ADR 0078): one chain, items keyed `{chain, sequence}` and
// stored exactly as hashed, plus `expiresAt` (five years after each entry, outside the hash). Only
// Query and PutItem are ever sent: no role of the product may update or delete an entry. Reads
// leave out entries past `expiresAt`, since DynamoDB deletes expired items only eventually; the
// oldest kept entry therefore chains onto one that is gone, which the audit expects.

const [byTime, byTarget] = tables.adminAuditLog.indexes;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The conditional put of an entry, for a transaction that records an action with the change it
 * makes: if another append took the sequence first, the whole transaction is cancelled and the
 * caller builds the entry again on the new head.
 */
export function auditEntryPut(tableName: string, entry: StoredAuditEntry): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: entry,
      ConditionExpression: 'attribute_not_exists(#chain)',
      ExpressionAttributeNames: { '#chain': 'chain' },
    },
  };
}

export class AdminAuditContentionError extends Error {
  constructor(readonly attempts: number) {
    super(`Could not append to the admin audit trail after ${attempts} attempts (concurrent writes).`);
    this.name = 'AdminAuditContentionError';
  }
}

export interface AdminAuditLogOptions {
  clock?: Clock;
  newId?: () => string;
  maxAttempts?: number;
  backoff?: (attempt: number) => Promise<void>;
}

export class DynamoDbAdminAuditLog implements AdminAuditLog {
  private readonly clock: Clock;
  private readonly newId: () => string;
  private readonly maxAttempts: number;
  private readonly backoff: (attempt: number) => Promise<void>;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    readonly tableName: string,
    options: AdminAuditLogOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.newId = options.newId ?? randomUUID;
    this.maxAttempts = options.maxAttempts ?? 8;
    this.backoff = options.backoff ?? jitteredBackoff;
  }

  async head(): Promise<AuditHead | undefined> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: '#chain = :chain',
        ExpressionAttributeNames: { '#chain': 'chain', '#sequence': 'sequence', '#hash': 'hash' },
        ExpressionAttributeValues: { ':chain': adminAuditChain },
        ScanIndexForward: false,
        Limit: 1,
        // A stale head fails the put's condition and costs a retry; a consistent one does not.
        ConsistentRead: true,
        ProjectionExpression: '#sequence, #hash',
      }),
    );
    const item = result.Items?.[0];
    return item ? { sequence: item.sequence as number, hash: item.hash as string } : undefined;
  }

  async append(facts: AdminAuditFacts): Promise<AdminAuditEntry> {
    for (let attempt = 1; attempt <= this.maxAttempts; attempt += 1) {
      const entry = chainEntry(facts, await this.head(), {
        entryId: this.newId(),
        recordedAt: this.clock.now(),
      });
      try {
        await this.client.send(
          new PutCommand({
            TableName: this.tableName,
            Item: entry,
            ConditionExpression: 'attribute_not_exists(#chain)',
            ExpressionAttributeNames: { '#chain': 'chain' },
          }),
        );
        return entry;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        if (attempt < this.maxAttempts) await this.backoff(attempt);
      }
    }
    throw new AdminAuditContentionError(this.maxAttempts);
  }

  listByTime(fromIso: string, toIso: string): Promise<AdminAuditEntry[]> {
    return this.queryAll({
      TableName: this.tableName,
      IndexName: byTime.name,
      KeyConditionExpression: '#chain = :chain AND recordedAt BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#chain': 'chain' },
      ExpressionAttributeValues: { ':chain': adminAuditChain, ':from': fromIso, ':to': toIso },
      ScanIndexForward: true,
    });
  }

  listFrom(sequence: number): Promise<AdminAuditEntry[]> {
    return this.queryAll({
      TableName: this.tableName,
      KeyConditionExpression: '#chain = :chain AND #sequence >= :from',
      ExpressionAttributeNames: { '#chain': 'chain', '#sequence': 'sequence' },
      ExpressionAttributeValues: { ':chain': adminAuditChain, ':from': sequence },
      ScanIndexForward: true,
      ConsistentRead: true,
    });
  }

  async listByTarget(
    targetId: string,
    limit: number,
  ): Promise<{ entries: AdminAuditEntry[]; truncated: boolean }> {
    // Newest first, one more than asked, so the answer knows whether older entries were left out.
    const entries = await this.queryAll(
      {
        TableName: this.tableName,
        IndexName: byTarget.name,
        KeyConditionExpression: 'targetId = :target',
        ExpressionAttributeValues: { ':target': targetId },
        ScanIndexForward: false,
      },
      limit + 1,
    );
    return { entries: entries.slice(0, limit).reverse(), truncated: entries.length > limit };
  }

  /** Every page of the query (up to `max` entries), without the entries past their retention. */
  private async queryAll(
    input: QueryCommandInput,
    max = Number.POSITIVE_INFINITY,
  ): Promise<AdminAuditEntry[]> {
    const entries: AdminAuditEntry[] = [];
    let startKey: QueryCommandInput['ExclusiveStartKey'];
    do {
      const page = await this.client.send(
        new QueryCommand({
          ...input,
          FilterExpression: 'attribute_not_exists(#expiresAt) OR #expiresAt > :now',
          ExpressionAttributeNames: { ...input.ExpressionAttributeNames, '#expiresAt': retentionAttribute },
          ExpressionAttributeValues: {
            ...input.ExpressionAttributeValues,
            ':now': Math.floor(this.clock.now().getTime() / 1000),
          },
          ExclusiveStartKey: startKey,
        }),
      );
      // As stored, not re-shaped: verification sees any attribute added after the write.
      entries.push(...((page.Items ?? []) as AdminAuditEntry[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey && entries.length < max);
    return entries.slice(0, max);
  }
}
