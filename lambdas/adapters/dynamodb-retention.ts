import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { inquiryKey } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { retentionAttribute } from '#lambdas/domain/consent/hash-chain.ts';
import type { RetentionSchedule } from '#lambdas/domain/data-rights/ports.ts';

// The operator's retention step (ADR 0031): sets `expiresAt`, the tables' TTL attribute, on what
// an erasure keeps. Run by `npm run data:erase` with operator credentials; no Lambda role can
// update the ledger. Only that attribute is written, only where it is not set yet, and only on
// items that exist (an update must not create an item).

export class DynamoDbRetention implements RetentionSchedule {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: { consentLedger: string; kycState: string },
  ) {}

  async expireConsentRecords(subjectId: string, expiresAt: number): Promise<void> {
    const keys = await this.keys({
      TableName: this.tables.consentLedger,
      KeyConditionExpression: 'subjectId = :subjectId',
      ExpressionAttributeValues: { ':subjectId': subjectId },
      ProjectionExpression: 'subjectId, #sequence',
      ExpressionAttributeNames: { '#sequence': 'sequence' },
      ConsistentRead: true,
    });
    for (const key of keys) await this.expire(this.tables.consentLedger, key, 'subjectId', expiresAt);
  }

  async expireKycRecords(userId: string, inquiryIds: string[], expiresAt: number): Promise<void> {
    const items = await this.keys({
      TableName: this.tables.kycState,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': kycStateKey(userId).pk },
      ProjectionExpression: 'pk, sk, inquiryId',
      ConsistentRead: true,
    });
    // Every inquiry recorded against the person (each attempt's, ADR 0058), not only the current one.
    const recorded = items.flatMap((item) =>
      String(item.sk).startsWith('INQUIRY#') && typeof item.inquiryId === 'string' ? [item.inquiryId] : [],
    );
    const keys = [
      ...items.map(({ pk, sk }) => ({ pk, sk })),
      ...[...new Set([...inquiryIds, ...recorded])].map(inquiryKey),
    ];
    for (const key of keys) await this.expire(this.tables.kycState, key, 'pk', expiresAt);
  }

  private async keys(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
    const keys: Record<string, unknown>[] = [];
    let startKey: QueryCommandInput['ExclusiveStartKey'];
    do {
      const page = await this.client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      keys.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return keys;
  }

  private async expire(
    tableName: string,
    key: Record<string, unknown>,
    partitionKey: string,
    expiresAt: number,
  ): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression: 'SET #expiresAt = :expiresAt',
          ConditionExpression: 'attribute_exists(#key) AND attribute_not_exists(#expiresAt)',
          ExpressionAttributeNames: { '#expiresAt': retentionAttribute, '#key': partitionKey },
          ExpressionAttributeValues: { ':expiresAt': expiresAt },
        }),
      );
    } catch (error) {
      // Already set (a rerun) or gone: either way nothing to do.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
