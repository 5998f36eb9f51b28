import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { KycStatus } from '#contracts/kyc.ts';
import {
  isErased,
  isStatus,
  kycStateKey,
  stringOrNull,
  toKycRecord,
} from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import type { HistoryEntry, KycAdminQueue, KycRecord, QueuePage } from '#lambdas/domain/kyc/ports.ts';
import type { StaleInquiryFinder } from '#lambdas/domain/kyc/reconcile-inquiries.ts';

// The KYC table's listings: the `byStatus` index (`queueStatus`, `updatedAt`) over the state items
// and the history items in each user's partition (`HISTORY#<iso>#<version>`), both written by the
// state writer (dynamodb-kyc-store.ts). The admin review queue and the reconciliation read them.

/** The actions a history item may name; an item from before `action` existed is a status change. */
const historyActions: readonly HistoryEntry['action'][] = [
  'status_changed',
  'new_attempt_allowed',
  'decision_held',
];

function toHistoryEntry(item: Record<string, unknown>): HistoryEntry | undefined {
  if (!isStatus(item.from) || !isStatus(item.to)) return undefined;
  if (item.by !== 'persona' && item.by !== 'admin' && item.by !== 'user') return undefined;
  return {
    from: item.from,
    to: item.to,
    by: item.by,
    actorId: String(item.actorId ?? item.by),
    reason: stringOrNull(item.reason),
    reasonCode: stringOrNull(item.reasonCode),
    action: historyActions.find((action) => action === item.action) ?? 'status_changed',
    // `at` is also the sort key's timestamp (HISTORY#<iso>#<version>).
    at: typeof item.at === 'string' ? item.at : (String(item.sk).split('#')[1] ?? ''),
  };
}

/** Items per index query: a page of the queue needs one query; a search reads on in these. */
const queryPageLimit = 1000;

/** The change time of the `limit`-th record in `order` (the page's boundary), if there are that many. */
function boundaryTime(records: readonly KycRecord[], limit: number, newest: boolean): string | undefined {
  if (records.length < limit) return undefined;
  const times = records.map((record) => record.updatedAt).sort();
  return newest ? times[times.length - limit] : times[limit - 1];
}

/** Parallel history queries per listing: enough to list 200 users quickly, few enough not to spike. */
const historyQueryConcurrency = 16;

/** The admin queue's reads (ADR 0028) and the reconciliation's candidates (ADR 0038). */
export class DynamoDbKycAdminQueue implements KycAdminQueue, StaleInquiryFinder {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * One status's queue from the `byStatus` index (`queueStatus`, `updatedAt`), paged by DynamoDB
   * (ADR 0082). The index orders by `updatedAt` only; items with the same time come in no fixed
   * order, so the read starts at the cursor's time (`<=` or `>=`), drops what is not strictly after
   * the cursor in (time, user id) order, and reads on past `limit` until the time changes: the
   * caller sorts and cuts, and a tie is never split between two pages.
   */
  async listByStatus(status: KycStatus, page: QueuePage): Promise<KycRecord[]> {
    const newest = page.order === 'newest';
    const after = page.after;
    const isAfter = (record: KycRecord) => {
      if (!after) return true;
      if (record.updatedAt !== after.updatedAt)
        return newest ? record.updatedAt < after.updatedAt : record.updatedAt > after.updatedAt;
      return newest ? record.userId < after.userId : record.userId > after.userId;
    };
    const records: KycRecord[] = [];
    let startKey: QueryCommandOutput['LastEvaluatedKey'];
    let lastTime: string | undefined;
    do {
      const output: QueryCommandOutput = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: 'byStatus',
          KeyConditionExpression: after
            ? `queueStatus = :status AND updatedAt ${newest ? '<=' : '>='} :at`
            : 'queueStatus = :status',
          ExpressionAttributeValues: { ':status': status, ...(after ? { ':at': after.updatedAt } : {}) },
          ScanIndexForward: !newest,
          Limit: Math.min(page.limit + 1, queryPageLimit),
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      const items = output.Items ?? [];
      for (const item of items) {
        // An erased person's state (it carries its retention deadline, ADR 0031) is no longer
        // anyone's verification to review (ADR 0077), past its deadline or not.
        if (isErased(item)) continue;
        const record = toKycRecord(item);
        if (isAfter(record)) records.push(record);
      }
      lastTime = items.length > 0 ? String(items[items.length - 1]?.updatedAt) : lastTime;
      startKey = output.LastEvaluatedKey;
      // Past the limit, read on only while the next items may share the boundary's time.
    } while (
      startKey !== undefined &&
      (records.length < page.limit || lastTime === boundaryTime(records, page.limit, newest))
    );
    return records;
  }

  /**
   * The reconciliation's candidates (ADR 0038) from the `byStatus` index: one query per undecided
   * status, keyed on `updatedAt < before`, newest first, paged only until `limit` items passed the
   * filter, so a run reads about as many items as it checks.
   */
  async listUndecidedBefore(before: string, limit: number): Promise<KycRecord[]> {
    const perStatus = await Promise.all(
      (['pending', 'not_started'] as const).map(async (status) => {
        const records: KycRecord[] = [];
        let startKey: QueryCommandOutput['LastEvaluatedKey'];
        do {
          const page: QueryCommandOutput = await this.client.send(
            new QueryCommand({
              TableName: this.tableName,
              IndexName: 'byStatus',
              KeyConditionExpression: 'queueStatus = :status AND updatedAt < :before',
              FilterExpression: 'attribute_exists(inquiryId)',
              ExpressionAttributeValues: { ':status': status, ':before': before },
              ScanIndexForward: false,
              Limit: limit,
              ...(startKey ? { ExclusiveStartKey: startKey } : {}),
            }),
          );
          for (const item of page.Items ?? []) {
            if (records.length < limit && !isErased(item)) records.push(toKycRecord(item));
          }
          startKey = page.LastEvaluatedKey;
        } while (startKey !== undefined && records.length < limit);
        return records;
      }),
    );
    return perStatus
      .flat()
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
      .slice(0, limit);
  }

  /**
   * One query per user (a user's history items share the state item's partition), newest first
   * with a limit, so a user with a long history costs the same as one with a short history.
   */
  async listHistories(
    userIds: readonly string[],
    limitPerUser: number,
  ): Promise<Map<string, HistoryEntry[]>> {
    const histories = new Map<string, HistoryEntry[]>();
    const queue = [...new Set(userIds)];
    const worker = async () => {
      for (let userId = queue.shift(); userId !== undefined; userId = queue.shift()) {
        const { Items = [] } = await this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :history)',
            ExpressionAttributeValues: { ':pk': kycStateKey(userId).pk, ':history': 'HISTORY#' },
            ScanIndexForward: false,
            Limit: limitPerUser,
          }),
        );
        const entries = Items.map(toHistoryEntry)
          .filter((entry) => entry !== undefined)
          .reverse();
        if (entries.length > 0) histories.set(userId, entries);
      }
    };
    await Promise.all(Array.from({ length: Math.min(historyQueryConcurrency, queue.length) }, worker));
    return histories;
  }
}
