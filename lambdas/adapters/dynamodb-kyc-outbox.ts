import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandOutput,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { KycStatusChanged } from '#contracts/events.ts';
import { epochSeconds } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import type { KycOutbox, OutboxEntry } from '#lambdas/domain/kyc/ports.ts';

// The KYC table's outbox (docs/decisions/0006-kyc-state-and-webhooks.md): one item per status
// change, `OUTBOX` / `<iso>#<event id>`, holding the KycStatusChanged detail; written in the state
// writer's transaction (dynamodb-kyc-store.ts), `publishedAt` set once it is on the bus.

export const outboxPk = 'OUTBOX';
/** Published outbox items are kept a week for investigation, then expire. */
export const publishedOutboxRetentionSeconds = 7 * 24 * 60 * 60;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The outbox item of a status change, put in the writer's transaction, published now or by the relay. */
export function outboxPut(tableName: string, outboxId: string, event: KycStatusChanged): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: {
        pk: outboxPk,
        sk: outboxId,
        kind: 'kyc_outbox',
        detailType: 'KycStatusChanged',
        detail: event,
        createdAt: event.occurredAt,
      },
    },
  };
}

/** What the relay reads, and the mark a publish leaves. */
export class DynamoDbKycOutbox implements KycOutbox {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async listUnpublished(limit: number): Promise<OutboxEntry[]> {
    const entries: OutboxEntry[] = [];
    let startKey: QueryCommandOutput['LastEvaluatedKey'];
    do {
      const page: QueryCommandOutput = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: 'attribute_not_exists(publishedAt)',
          ExpressionAttributeValues: { ':pk': outboxPk },
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        if (entries.length >= limit) break;
        entries.push({ id: String(item.sk), event: item.detail as KycStatusChanged });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined && entries.length < limit);
    return entries;
  }

  async markPublished(outboxId: string, at: Date): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: outboxPk, sk: outboxId },
        UpdateExpression: 'SET publishedAt = :at, expiresAt = :expires',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':at': at.toISOString(),
          ':expires': epochSeconds(at) + publishedOutboxRetentionSeconds,
        },
      }),
    );
  }
}
