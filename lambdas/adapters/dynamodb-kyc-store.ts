import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { KycStatusChanged } from '#contracts/events.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import { auditEntryPut } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { DynamoDbKycAdminQueue } from '#lambdas/adapters/dynamodb-kyc-admin-queue.ts';
import { DynamoDbKycOutbox, outboxPut } from '#lambdas/adapters/dynamodb-kyc-outbox.ts';
import {
  DynamoDbKycStateReader,
  epochSeconds,
  kycStateKey,
  toKycRecord,
} from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import type { StoredAuditEntry } from '#lambdas/domain/admin-audit/trail.ts';
import { retentionAttribute } from '#lambdas/domain/consent/hash-chain.ts';
import { StorageUnavailableError } from '#lambdas/domain/errors.ts';
import type {
  ApplyResult,
  DecisionProposal,
  EventRead,
  HistoryEntry,
  KycRecord,
  KycStore,
  NewAttemptAllowance,
  NewAttemptStart,
  OutboxEntry,
  QueuePage,
  RecordedInquiry,
  StatusChange,
} from '#lambdas/domain/kyc/ports.ts';
import type { StaleInquiryFinder } from '#lambdas/domain/kyc/reconcile-inquiries.ts';
import { statusesOutrankedBy } from '#lambdas/domain/kyc/status-mapping.ts';

// The KYC table, single-table design (docs/decisions/0006-kyc-state-and-webhooks.md):
//   USER#<sub>    STATE                   status, queueStatus (GSI byStatus), updatedAt, inquiryId,
//                                         referenceId, version, lastEventId, lastEventAt, decidedBy,
//                                         reasonCode, attempt, newAttemptAllowed, flaggedChecks
//                                         ([{type, name}]: the failed checks, ADR 0082)
//   USER#<sub>    HISTORY#<iso>#<version> from, to, by, actorId, reason, reasonCode, action, eventId,
//                                         inquiryId
//   USER#<sub>    INQUIRY#<id>            attempt, createdAt (every inquiry of the person: ADR 0058)
//   INQUIRY#<id>  INQUIRY                 userId, referenceId (inquiries this backend created)
//   EVENT#<id>    EVENT                   processed webhook event ids, expiresAt = now + 45 days
//   OUTBOX        <iso>#<event id>        KycStatusChanged detail; publishedAt once published
// This file is the state writer: every write above is one of its transactions. The outbox's reads
// and marks are dynamodb-kyc-outbox.ts; the listings (the byStatus index, the histories) are
// dynamodb-kyc-admin-queue.ts.

export const inquiryKey = (inquiryId: string) => ({ pk: `INQUIRY#${inquiryId}`, sk: 'INQUIRY' });
export const eventKey = (eventId: string) => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' });
export const historySk = (at: string, version: number) => `HISTORY#${at}#${String(version).padStart(8, '0')}`;
/** An inquiry recorded against the person, in their partition. */
export const userInquirySk = (inquiryId: string) => `INQUIRY#${inquiryId}`;

/** Persona retries for about 51 hours and keeps events 30 days: remember ids longer than both. */
export const eventRetentionSeconds = 45 * 24 * 60 * 60;

/**
 * Every write to a state item requires this: an erased person's state (it carries the erasure's
 * retention deadline) stays as the erasure left it, and gets no history item (ADR 0077).
 */
const notErased = `attribute_not_exists(${retentionAttribute})`;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** BatchGetItem rounds for one read before the store counts as unavailable. */
const batchGetAttempts = 4;

/**
 * The KYC feature's store: it writes the state, reads the state item through the one reader it
 * extends, and serves the outbox and the listings through their own adapters (the handlers that
 * need only those build them alone).
 */
export class DynamoDbKycStore extends DynamoDbKycStateReader implements KycStore, StaleInquiryFinder {
  readonly #outbox = new DynamoDbKycOutbox(this.client, this.tableName);
  readonly #listings = new DynamoDbKycAdminQueue(this.client, this.tableName);
  readonly #auditTable: string | undefined;

  /** `auditTable`: the admin trail, for the reviewers' changes that carry an entry (ADR 0078). */
  constructor(client: DynamoDBDocumentClient, tableName: string, options: { auditTable?: string } = {}) {
    super(client, tableName);
    this.#auditTable = options.auditTable;
  }

  /** The put of a change's trail entry, in the change's own transaction. */
  #auditPut(entry: StoredAuditEntry): TransactItem {
    if (this.#auditTable === undefined)
      throw new Error('A change with an admin-trail entry needs the store built with its auditTable.');
    return auditEntryPut(this.#auditTable, entry);
  }

  listUnpublished(limit: number): Promise<OutboxEntry[]> {
    return this.#outbox.listUnpublished(limit);
  }

  markPublished(outboxId: string, at: Date): Promise<void> {
    return this.#outbox.markPublished(outboxId, at);
  }

  listByStatus(status: KycStatus, page: QueuePage): Promise<KycRecord[]> {
    return this.#listings.listByStatus(status, page);
  }

  listUndecidedBefore(before: string, limit: number): Promise<KycRecord[]> {
    return this.#listings.listUndecidedBefore(before, limit);
  }

  listHistories(userIds: readonly string[], limitPerUser: number): Promise<Map<string, HistoryEntry[]>> {
    return this.#listings.listHistories(userIds, limitPerUser);
  }

  async findInquiryOwner(inquiryId: string) {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: inquiryKey(inquiryId), ConsistentRead: true }),
    );
    if (typeof Item?.userId !== 'string') return undefined;
    return { userId: Item.userId, referenceId: String(Item.referenceId ?? Item.userId) };
  }

  /**
   * One BatchGetItem, strongly consistent, for the state item and the event's marker. Keys DynamoDB
   * leaves unprocessed (throttling) are asked for again with a short backoff; if some are still
   * left, StorageUnavailableError: the target fails and EventBridge retries it.
   */
  async readForEvent(userId: string, eventId: string, now: Date): Promise<EventRead> {
    const stateKey = kycStateKey(userId);
    const markerKey = eventKey(eventId);
    const items: Record<string, unknown>[] = [];
    let keys: Record<string, unknown>[] = [stateKey, markerKey];
    for (let attempt = 0; keys.length > 0; attempt++) {
      if (attempt === batchGetAttempts)
        throw new StorageUnavailableError('BatchGetItem (keys left unprocessed)');
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const answer = await this.client.send(
        new BatchGetCommand({
          RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } },
        }),
      );
      items.push(...(answer.Responses?.[this.tableName] ?? []));
      keys = answer.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
    }
    const state = items.find((item) => item.pk === stateKey.pk && item.sk === stateKey.sk);
    const marker = items.find((item) => item.pk === markerKey.pk && item.sk === markerKey.sk);
    return {
      record: state === undefined ? undefined : toKycRecord(state),
      expiring: state !== undefined && typeof state[retentionAttribute] === 'number',
      // DynamoDB deletes expired items only eventually (DynamoDB Local too, by a background sweep): filter on read.
      processed:
        marker !== undefined && typeof marker.expiresAt === 'number' && marker.expiresAt > epochSeconds(now),
    };
  }

  async recordInquiry(input: {
    userId: string;
    inquiryId: string;
    referenceId: string;
    expectedVersion: number | null;
    at: string;
  }): Promise<'saved' | 'conflict'> {
    const key = kycStateKey(input.userId);
    const state: TransactItem =
      input.expectedVersion === null
        ? {
            Put: {
              TableName: this.tableName,
              Item: {
                ...key,
                kind: 'kyc_state',
                userId: input.userId,
                status: 'not_started',
                queueStatus: 'not_started',
                updatedAt: input.at,
                createdAt: input.at,
                inquiryId: input.inquiryId,
                referenceId: input.referenceId,
                version: 1,
                attempt: 1,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          }
        : {
            Update: {
              TableName: this.tableName,
              Key: key,
              // Within the current attempt (an inquiry that expired unsubmitted is replaced): the
              // old inquiry's failed checks are not the new one's.
              UpdateExpression:
                'SET inquiryId = :inquiryId, referenceId = :referenceId, updatedAt = :at, version = :next, ' +
                'attempt = if_not_exists(attempt, :one) REMOVE flaggedChecks',
              ConditionExpression: `version = :expected AND ${notErased}`,
              ExpressionAttributeValues: {
                ':inquiryId': input.inquiryId,
                ':referenceId': input.referenceId,
                ':at': input.at,
                ':next': input.expectedVersion + 1,
                ':expected': input.expectedVersion,
                ':one': 1,
              },
            },
          };
    return this.saveAll([
      state,
      ...this.inquiryItems({ ...input, attempt: input.expectedVersion === null ? 1 : null }),
    ]);
  }

  /** One transaction: 'conflict' when DynamoDB cancels it (a condition failed, or a concurrent write). */
  private async saveAll(items: TransactItem[]): Promise<'saved' | 'conflict'> {
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
      return 'saved';
    } catch (error) {
      if (error instanceof TransactionCanceledException) return 'conflict';
      throw error;
    }
  }

  /**
   * The inquiry mapping (who the inquiry belongs to) and the inquiry recorded against the person
   * (so an erasure finds every inquiry of theirs). `attempt` null: the state's current attempt,
   * kept as the person's record says (written at most once per inquiry).
   */
  private inquiryItems(input: {
    userId: string;
    inquiryId: string;
    referenceId: string;
    attempt: number | null;
    at: string;
  }): TransactItem[] {
    return [
      {
        Put: {
          TableName: this.tableName,
          Item: {
            ...inquiryKey(input.inquiryId),
            kind: 'kyc_inquiry',
            userId: input.userId,
            referenceId: input.referenceId,
            createdAt: input.at,
          },
          // The same inquiry recorded again (a retried request) is fine; another user's is not.
          ConditionExpression: 'attribute_not_exists(pk) OR userId = :userId',
          ExpressionAttributeValues: { ':userId': input.userId },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: {
            pk: kycStateKey(input.userId).pk,
            sk: userInquirySk(input.inquiryId),
            kind: 'kyc_user_inquiry',
            inquiryId: input.inquiryId,
            ...(input.attempt === null ? {} : { attempt: input.attempt }),
            createdAt: input.at,
          },
        },
      },
    ];
  }

  /** A history item in the user's partition; its sort key orders it by time, then by the state's version. */
  private historyPut(
    userId: string,
    version: number,
    entry: HistoryEntry & { eventId?: string; inquiryId?: string | null },
  ): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: {
          pk: kycStateKey(userId).pk,
          sk: historySk(entry.at, version),
          kind: 'kyc_history',
          ...entry,
        },
      },
    };
  }

  async allowNewAttempt(input: NewAttemptAllowance): Promise<'saved' | 'conflict'> {
    const nextVersion = input.expectedVersion + 1;
    return this.saveAll([
      {
        Update: {
          TableName: this.tableName,
          Key: kycStateKey(input.userId),
          UpdateExpression:
            'SET newAttemptAllowed = :true, version = :next, updatedAt = :at, queueStatus = #status',
          ConditionExpression: `version = :expected AND #status = :rejected AND ${notErased}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':true': true,
            ':next': nextVersion,
            ':at': input.at,
            ':expected': input.expectedVersion,
            ':rejected': 'rejected',
          },
        },
      },
      this.historyPut(input.userId, nextVersion, {
        from: 'rejected',
        to: 'rejected',
        by: 'admin',
        actorId: input.actorId,
        reason: input.reason,
        reasonCode: null,
        action: 'new_attempt_allowed',
        at: input.at,
      }),
      ...(input.audit ? [this.#auditPut(input.audit)] : []),
    ]);
  }

  async stopAfterWithdrawal(input: {
    userId: string;
    expectedVersion: number;
    inquiryId: string;
    at: string;
  }): Promise<{ outcome: 'saved'; outbox: OutboxEntry } | { outcome: 'conflict' }> {
    const nextVersion = input.expectedVersion + 1;
    const eventId = `withdrawal_${input.inquiryId}`;
    const event: KycStatusChanged = {
      userId: input.userId,
      status: 'not_started',
      previousStatus: 'pending',
      inquiryId: input.inquiryId,
      decidedBy: 'user',
      occurredAt: input.at,
    };
    const outboxId = `${input.at}#${eventId}`;
    const outcome = await this.saveAll([
      {
        Update: {
          TableName: this.tableName,
          Key: kycStateKey(input.userId),
          // The withdrawal counts as the newest event: Persona's older events of the inquiry are stale.
          UpdateExpression:
            'SET #status = :notStarted, queueStatus = :notStarted, version = :next, updatedAt = :at, ' +
            'decidedBy = :user, lastEventId = :eventId, lastEventAt = :at REMOVE reasonCode, proposal',
          ConditionExpression: `version = :expected AND #status = :pending AND inquiryId = :inquiryId AND ${notErased}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':notStarted': 'not_started',
            ':pending': 'pending',
            ':inquiryId': input.inquiryId,
            ':next': nextVersion,
            ':at': input.at,
            ':user': 'user',
            ':eventId': eventId,
            ':expected': input.expectedVersion,
          },
        },
      },
      this.historyPut(input.userId, nextVersion, {
        from: 'pending',
        to: 'not_started',
        by: 'user',
        actorId: input.userId,
        reason: 'consent withdrawn',
        reasonCode: null,
        action: 'status_changed',
        at: input.at,
        eventId,
        inquiryId: input.inquiryId,
      }),
      outboxPut(this.tableName, outboxId, event),
    ]);
    return outcome === 'saved' ? { outcome, outbox: { id: outboxId, event } } : { outcome };
  }

  async propose(input: DecisionProposal): Promise<'saved' | 'conflict'> {
    const nextVersion = input.expectedVersion + 1;
    const { proposal } = input;
    return this.saveAll([
      {
        Update: {
          TableName: this.tableName,
          Key: kycStateKey(input.userId),
          // The status, the queue's index and `updatedAt` stay: nothing was decided yet.
          UpdateExpression: 'SET proposal = :proposal, version = :next',
          ConditionExpression: `version = :expected AND #status = :from AND ${notErased}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':proposal': proposal,
            ':next': nextVersion,
            ':expected': input.expectedVersion,
            ':from': proposal.fromStatus,
          },
        },
      },
      this.historyPut(input.userId, nextVersion, {
        from: proposal.fromStatus,
        to: proposal.decision,
        by: 'admin',
        actorId: proposal.adminId,
        reason: proposal.reason,
        reasonCode: proposal.reasonCode,
        action: 'decision_proposed',
        at: proposal.at,
      }),
      this.#auditPut(input.audit),
    ]);
  }

  async startNewAttempt(
    input: NewAttemptStart,
  ): Promise<{ outcome: 'saved'; outbox: OutboxEntry } | { outcome: 'conflict' }> {
    const nextVersion = input.expectedVersion + 1;
    const eventId = `attempt_${input.attempt}_${input.inquiryId}`;
    const event: KycStatusChanged = {
      userId: input.userId,
      status: 'not_started',
      previousStatus: 'rejected',
      inquiryId: input.inquiryId,
      decidedBy: 'user',
      occurredAt: input.at,
    };
    const outboxId = `${input.at}#${eventId}`;
    const outcome = await this.saveAll([
      {
        Update: {
          TableName: this.tableName,
          Key: kycStateKey(input.userId),
          UpdateExpression:
            'SET #status = :notStarted, queueStatus = :notStarted, inquiryId = :inquiryId, ' +
            'referenceId = :referenceId, attempt = :attempt, version = :next, updatedAt = :at, ' +
            'decidedBy = :user, lastEventId = :eventId ' +
            'REMOVE newAttemptAllowed, reasonCode, lastEventAt, flaggedChecks',
          ConditionExpression: `version = :expected AND #status = :rejected AND newAttemptAllowed = :true AND ${notErased}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':notStarted': 'not_started',
            ':inquiryId': input.inquiryId,
            ':referenceId': input.referenceId,
            ':attempt': input.attempt,
            ':next': nextVersion,
            ':at': input.at,
            ':user': 'user',
            ':eventId': eventId,
            ':expected': input.expectedVersion,
            ':rejected': 'rejected',
            ':true': true,
          },
        },
      },
      ...this.inquiryItems({ ...input }),
      this.historyPut(input.userId, nextVersion, {
        from: 'rejected',
        to: 'not_started',
        by: 'user',
        actorId: input.userId,
        reason: null,
        reasonCode: null,
        action: 'status_changed',
        at: input.at,
        eventId,
        inquiryId: input.inquiryId,
      }),
      outboxPut(this.tableName, outboxId, event),
    ]);
    return outcome === 'saved' ? { outcome, outbox: { id: outboxId, event } } : { outcome };
  }

  async listInquiries(userId: string): Promise<RecordedInquiry[]> {
    const inquiries: RecordedInquiry[] = [];
    let startKey: QueryCommandOutput['LastEvaluatedKey'];
    do {
      const page: QueryCommandOutput = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :inquiry)',
          ExpressionAttributeValues: { ':pk': kycStateKey(userId).pk, ':inquiry': 'INQUIRY#' },
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        if (typeof item.inquiryId !== 'string') continue;
        inquiries.push({
          inquiryId: item.inquiryId,
          attempt: typeof item.attempt === 'number' ? item.attempt : 1,
          createdAt: String(item.createdAt ?? ''),
        });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return inquiries.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async applyChange(change: StatusChange): Promise<ApplyResult> {
    const changed = change.held !== true && change.status !== change.previousStatus;
    const nextVersion = change.expectedVersion + 1;
    const event: KycStatusChanged | null = changed
      ? {
          userId: change.userId,
          status: change.status,
          previousStatus: change.previousStatus,
          inquiryId: change.inquiryId,
          decidedBy: change.decidedBy,
          occurredAt: change.at,
          ...(change.reasonCode ? { reasonCode: change.reasonCode } : {}),
        }
      : null;
    const outboxId = changed ? `${change.at}#${change.eventId}` : null;

    const conditions = ['version = :expected', notErased];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {
      ':expected': change.expectedVersion,
      ':next': nextVersion,
      ':eventId': change.eventId,
      ':eventAt': change.eventAt,
    };
    if (change.requireNewerEvent) {
      // After the last applied event: newer, or as new with a status that outranks the stored one.
      const outranked = statusesOutrankedBy(change.status);
      const sameTime = outranked.length
        ? ` OR (lastEventAt = :eventAt AND #status IN (${outranked.map((_, i) => `:outranked${i}`).join(', ')}))`
        : '';
      conditions.push(
        'inquiryId = :inquiryId',
        `(attribute_not_exists(lastEventAt) OR lastEventAt < :eventAt${sameTime})`,
      );
      values[':inquiryId'] = change.inquiryId;
      outranked.forEach((status, i) => {
        values[`:outranked${i}`] = status;
      });
      if (outranked.length) names['#status'] = 'status';
    }
    let update = 'SET version = :next, lastEventId = :eventId, lastEventAt = :eventAt';
    if (change.flaggedChecks !== undefined) {
      // Under the same ordering condition as the event: a stale event never replaces the summary.
      update += ', flaggedChecks = :flaggedChecks';
      values[':flaggedChecks'] = change.flaggedChecks.map((check) => ({
        type: check.type,
        name: check.name,
      }));
    }
    if (changed) {
      update += ', #status = :status, queueStatus = :status, updatedAt = :at, decidedBy = :decidedBy';
      names['#status'] = 'status';
      values[':status'] = change.status;
      values[':at'] = change.at;
      values[':decidedBy'] = change.decidedBy;
      if (change.reasonCode !== null) {
        update += ', reasonCode = :reasonCode';
        values[':reasonCode'] = change.reasonCode;
      }
      // A decision ends any allowance of a new attempt and any proposal (ADR 0080); a status
      // without a reason clears the old one.
      update +=
        change.reasonCode === null
          ? ' REMOVE newAttemptAllowed, proposal, reasonCode'
          : ' REMOVE newAttemptAllowed, proposal';
    }

    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.tableName,
          Key: kycStateKey(change.userId),
          UpdateExpression: update,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeValues: values,
          ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: {
            ...eventKey(change.eventId),
            kind: 'kyc_event',
            userId: change.userId,
            processedAt: change.at,
            expiresAt: epochSeconds(new Date(change.at)) + eventRetentionSeconds,
          },
          // An expired marker not yet deleted by TTL no longer counts.
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': epochSeconds(new Date(change.at)) },
        },
      },
    ];
    const markerIndex = 1;
    // The change as the history records it: a status change, or Persona's decision after an
    // admin's, recorded beside it while the admin's stands (no outbox then).
    const history = (action: 'status_changed' | 'decision_held') =>
      this.historyPut(change.userId, nextVersion, {
        from: change.previousStatus,
        to: change.status,
        by: change.decidedBy,
        actorId: change.actorId,
        reason: change.reason,
        reasonCode: change.reasonCode,
        action,
        at: change.at,
        eventId: change.eventId,
        inquiryId: change.inquiryId,
      });
    if (change.held === true) items.push(history('decision_held'));
    if (changed && event !== null && outboxId !== null)
      items.push(history('status_changed'), outboxPut(this.tableName, outboxId, event));
    if (changed && change.audit) items.push(this.#auditPut(change.audit));

    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
      if (codes[markerIndex] === 'ConditionalCheckFailed') return { outcome: 'duplicate' };
      if (codes.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) {
        return { outcome: 'conflict' };
      }
      throw error;
    }
    return { outcome: 'applied', outboxId, event };
  }
}
