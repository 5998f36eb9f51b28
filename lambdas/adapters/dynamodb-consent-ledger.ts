import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ApiLocale } from '#contracts/locale.ts';
import { ConsentChainMovedError, ConsentLedgerContentionError } from '#lambdas/domain/consent/errors.ts';
import { recordHash, retentionAttribute } from '#lambdas/domain/consent/hash-chain.ts';
import {
  type AppendOptions,
  type Clock,
  type ConsentEntry,
  type ConsentLedger,
  type ConsentPurpose,
  type ConsentRecord,
  systemClock,
} from '#lambdas/domain/ports.ts';
import { tables } from '#lambdas/tables.ts';
import { jitteredBackoff } from './append-backoff.ts';

// The consent ledger in DynamoDB (docs/decisions/0005-consent-ledger.md). Items are
// `{subjectId, sequence}`-keyed `ConsentRecord`s, stored exactly as hashed: nothing is added or
// renamed, so an auditor recomputes a hash from the item alone. Only Query and PutItem are ever
// sent; the writer role has no Update or Delete permission either. The one attribute outside the
// hash, `expiresAt`, is set by the operator's erasure step when the relationship ends (ADR 0031);
// reads leave out records past it, since DynamoDB deletes expired items only eventually.
// This class ignores an append's language choice (issue 28): the consent route's ledger
// (`DynamoDbConsentLedgerWithLanguageChoice`, its own module so no other bundle carries the
// transaction) records it on the profile in the same write.

export const purposeTimeIndex = tables.consentLedger.indexes[0].name;

export interface ConsentLedgerOptions {
  clock?: Clock;
  newId?: () => string;
  /** Attempts at appending when another write takes the same sequence first. */
  maxAttempts?: number;
  /** Waits between attempts (full jitter), so concurrent writers fall out of step. */
  backoff?: (attempt: number) => Promise<void>;
}

/**
 * The outcome of one conditional write of a record: `no_profile` when a write that also records the
 * language choice found no profile to record it on (the record was not written).
 */
export type WriteOutcome = 'written' | 'sequence_taken' | 'no_profile';

/** The conditional put of a record: only as a new (subjectId, sequence). */
export const recordPut = (tableName: string, record: ConsentRecord) => ({
  TableName: tableName,
  Item: record,
  // The key is (subjectId, sequence): if the item exists, another append took this sequence
  // first; re-read the head and chain onto it instead of forking.
  ConditionExpression: 'attribute_not_exists(subjectId)',
});

export class DynamoDbConsentLedger implements ConsentLedger {
  private readonly clock: Clock;
  private readonly newId: () => string;
  private readonly maxAttempts: number;
  private readonly backoff: (attempt: number) => Promise<void>;

  constructor(
    protected readonly client: DynamoDBDocumentClient,
    protected readonly tableName: string,
    options: ConsentLedgerOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.newId = options.newId ?? randomUUID;
    // Each lost race means another append succeeded, so a handful of attempts serves a person
    // double-clicking or several tabs; beyond that the caller retries later.
    this.maxAttempts = options.maxAttempts ?? 8;
    this.backoff = options.backoff ?? jitteredBackoff;
  }

  /** The record's conditional put; this ledger does not record a language choice. */
  protected async write(
    record: ConsentRecord,
    _languageChoice: ApiLocale | undefined,
  ): Promise<WriteOutcome> {
    try {
      await this.client.send(new PutCommand(recordPut(this.tableName, record)));
      return 'written';
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'sequence_taken';
      throw error;
    }
  }

  async append(entry: ConsentEntry, options: AppendOptions = {}): Promise<ConsentRecord> {
    const maxAttempts = options.sequence === undefined ? this.maxAttempts : 1;
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const latest = await this.latest(entry.subjectId);
      if (options.sequence !== undefined && (latest?.sequence ?? 0) + 1 !== options.sequence) {
        throw new ConsentChainMovedError(entry.subjectId, options.sequence);
      }
      const unhashed: Omit<ConsentRecord, 'hash'> = {
        // Copied field by field: an entry object with extra properties must not leak them into the ledger.
        subjectId: entry.subjectId,
        issuer: entry.issuer,
        purpose: entry.purpose,
        action: entry.action,
        statements: { ...entry.statements },
        documentVersion: entry.documentVersion,
        documentSha256: entry.documentSha256,
        locale: entry.locale,
        method: entry.method,
        requestId: entry.requestId,
        userAgent: entry.userAgent,
        ipAddress: entry.ipAddress,
        consentId: this.newId(),
        sequence: (latest?.sequence ?? 0) + 1,
        recordedAt: this.clock.now().toISOString(),
        previousHash: latest?.hash ?? null,
      };
      const record: ConsentRecord = {
        ...unhashed,
        hash: recordHash(unhashed),
        // A record appended after the relationship ended expires with the subject's others, so a
        // chain never outlives part of itself.
        ...(typeof latest?.expiresAt === 'number' ? { expiresAt: latest.expiresAt } : {}),
      };
      let outcome = await this.write(record, options.languageChoice);
      // No profile to record the choice on (an account created outside registration, or erased):
      // the record alone, as before.
      if (outcome === 'no_profile') outcome = await this.write(record, undefined);
      if (outcome === 'written') return record;
      if (options.sequence !== undefined) throw new ConsentChainMovedError(entry.subjectId, options.sequence);
      if (attempt < maxAttempts) await this.backoff(attempt);
    }
    throw new ConsentLedgerContentionError(entry.subjectId, this.maxAttempts);
  }

  async listBySubject(subjectId: string): Promise<ConsentRecord[]> {
    return this.queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'subjectId = :subjectId',
      ExpressionAttributeValues: { ':subjectId': subjectId },
      ScanIndexForward: true,
      ConsistentRead: true,
    });
  }

  /** Records of a purpose with `fromIso <= recordedAt <= toIso` (ISO strings compare as times). */
  async listByPurpose(purpose: ConsentPurpose, fromIso: string, toIso: string): Promise<ConsentRecord[]> {
    return this.queryAll({
      TableName: this.tableName,
      IndexName: purposeTimeIndex,
      KeyConditionExpression: 'purpose = :purpose AND recordedAt BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':purpose': purpose, ':from': fromIso, ':to': toIso },
      ScanIndexForward: true,
    });
  }

  private async latest(subjectId: string): Promise<ConsentRecord | undefined> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'subjectId = :subjectId',
        ExpressionAttributeValues: { ':subjectId': subjectId },
        ScanIndexForward: false,
        Limit: 1,
        // A stale read would pick an old head, fail the condition and retry: correct but slow.
        ConsistentRead: true,
      }),
    );
    return result.Items?.[0] as ConsentRecord | undefined;
  }

  /** Every page of the query, without the records past their retention. */
  private async queryAll(input: QueryCommandInput): Promise<ConsentRecord[]> {
    const records: ConsentRecord[] = [];
    let startKey: QueryCommandInput['ExclusiveStartKey'];
    const unexpired: Partial<QueryCommandInput> = {
      FilterExpression: 'attribute_not_exists(#expiresAt) OR #expiresAt > :now',
      ExpressionAttributeNames: { '#expiresAt': retentionAttribute },
      ExpressionAttributeValues: {
        ...input.ExpressionAttributeValues,
        ':now': Math.floor(this.clock.now().getTime() / 1000),
      },
    };
    do {
      const page = await this.client.send(
        new QueryCommand({ ...input, ...unexpired, ExclusiveStartKey: startKey }),
      );
      // Items are returned as stored (not re-shaped), so verification sees any added attribute.
      records.push(...((page.Items ?? []) as ConsentRecord[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records;
  }
}
