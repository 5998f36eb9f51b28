import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  ScanCommand,
  type ScanCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import type { KycStatusChanged } from '#contracts/events.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import {
  type ConsentLedgerOptions,
  DynamoDbConsentLedger,
} from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { kycStateKey, toKycRecord } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbKycStore, inquiryKey } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { retentionAttribute } from '#lambdas/domain/consent/hash-chain.ts';
import type {
  ApplyResult,
  DecisionProposal,
  HistoryEntry,
  KycRecord,
  NewAttemptAllowance,
  NewAttemptStart,
  StatusChange,
} from '#lambdas/domain/kyc/ports.ts';
import { tables } from '#lambdas/tables.ts';
import { createTableInput, localCredentials, type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The KYC store of the use cases' tests: the real adapter on DynamoDB Local, on a table of its own
// per store, so the store's rules (its conditions and transactions) are written once, in the
// adapter. What the tests assert on is the table's content, read back after every write: the
// states, the history, the outbox, the event markers and the inquiry mappings.

/** One history item as stored, with its user. */
export interface StoredHistory extends HistoryEntry {
  userId: string;
  eventId?: string;
}

/** The real store, and the table it writes as views that a test reads without waiting. */
export class KycTableStore extends DynamoDbKycStore {
  readonly states = new Map<string, KycRecord>();
  readonly inquiries = new Map<string, { userId: string; referenceId: string }>();
  /** Event id -> its marker's `expiresAt`. */
  readonly events = new Map<string, number>();
  readonly history: StoredHistory[] = [];
  readonly outbox = new Map<string, { event: KycStatusChanged; publishedAt: string | null }>();
  /** Every readForEvent call's user id (the processing path reads once per attempt). */
  readonly eventReads: string[] = [];
  /** Every listHistories call's user ids (the queue must read histories once, for listed users only). */
  readonly historyReads: string[][] = [];
  /** The admin trail the store's reviewer changes append to (a table of its own, ADR 0078). */
  audit!: DynamoDbAdminAuditLog;
  #started = 0;
  #shown = 0;

  /** A state item as the writer leaves one, with the inquiry's mapping when it names an inquiry. */
  async seed(record: Partial<KycRecord> & { userId: string }): Promise<void> {
    const state: KycRecord = {
      status: 'not_started',
      updatedAt: '2026-01-01T00:00:00.000Z',
      inquiryId: null,
      referenceId: record.userId,
      version: 1,
      lastEventId: null,
      lastEventAt: null,
      decidedBy: null,
      reasonCode: null,
      attempt: record.inquiryId ? 1 : 0,
      newAttemptAllowed: false,
      ...record,
    };
    const item: Record<string, unknown> = { ...kycStateKey(state.userId), kind: 'kyc_state' };
    // The writer leaves out what is null, and removes an allowance once it is used or ended.
    for (const [key, value] of Object.entries(state)) if (value !== null) item[key] = value;
    if (!state.newAttemptAllowed) delete item.newAttemptAllowed;
    item.queueStatus = state.status;
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: item }));
    if (state.inquiryId) await this.mapInquiry(state.inquiryId, state.userId);
    await this.refresh();
  }

  /** The inquiry's mapping item, as `recordInquiry` writes it. */
  async mapInquiry(inquiryId: string, userId: string, referenceId = userId): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...inquiryKey(inquiryId), kind: 'kyc_inquiry', userId, referenceId, createdAt: '' },
      }),
    );
    await this.refresh();
  }

  /** The inquiry's mapping gone (an erasure's TTL removed it). */
  async unmapInquiry(inquiryId: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: inquiryKey(inquiryId) }));
    await this.refresh();
  }

  /** The state carries an erasure's retention deadline, a month ahead (ADR 0031). */
  async beingErased(userId: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: kycStateKey(userId),
        UpdateExpression: 'SET #expires = :expires',
        ExpressionAttributeNames: { '#expires': retentionAttribute },
        ExpressionAttributeValues: { ':expires': Math.floor(Date.now() / 1000) + 30 * 24 * 3600 },
      }),
    );
    await this.refresh();
  }

  override async readForEvent(userId: string, eventId: string, now: Date) {
    this.eventReads.push(userId);
    return super.readForEvent(userId, eventId, now);
  }

  override async listHistories(userIds: readonly string[], limitPerUser: number) {
    this.historyReads.push([...userIds]);
    return super.listHistories(userIds, limitPerUser);
  }

  override recordInquiry(input: Parameters<DynamoDbKycStore['recordInquiry']>[0]) {
    return this.write(super.recordInquiry(input));
  }

  override allowNewAttempt(input: NewAttemptAllowance) {
    return this.write(super.allowNewAttempt(input));
  }

  override stopAfterWithdrawal(input: Parameters<DynamoDbKycStore['stopAfterWithdrawal']>[0]) {
    return this.write(super.stopAfterWithdrawal(input));
  }
  override propose(input: DecisionProposal) {
    return this.write(super.propose(input));
  }
  override startNewAttempt(input: NewAttemptStart) {
    return this.write(super.startNewAttempt(input));
  }

  override applyChange(change: StatusChange): Promise<ApplyResult> {
    return this.write(super.applyChange(change));
  }

  override async markPublished(outboxId: string, at: Date) {
    await super.markPublished(outboxId, at);
    await this.refresh();
  }

  /** The write's answer, once the views show the table after it (a refused write changed nothing). */
  private async write<T extends string | { outcome: string }>(pending: Promise<T>): Promise<T> {
    const answer = await pending;
    const outcome = typeof answer === 'string' ? answer : answer.outcome;
    if (outcome === 'saved' || outcome === 'applied') await this.refresh();
    return answer;
  }

  /**
   * Reads the table into the views. Of concurrent reads the one started last is shown: it began
   * after every write that had finished, so the views never go back to an older table.
   */
  async refresh(): Promise<void> {
    const started = ++this.#started;
    const items: Record<string, unknown>[] = [];
    let startKey: ScanCommandOutput['LastEvaluatedKey'];
    do {
      const page: ScanCommandOutput = await this.client.send(
        new ScanCommand({
          TableName: this.tableName,
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    if (started < this.#shown) return;
    this.#shown = started;
    this.show(items);
  }

  private show(items: Record<string, unknown>[]): void {
    this.states.clear();
    this.inquiries.clear();
    this.events.clear();
    this.outbox.clear();
    this.history.length = 0;
    // Sort keys order history and outbox items by time (then version), as they were written.
    const sorted = [...items].sort((a, b) => (String(a.sk) < String(b.sk) ? -1 : 1));
    for (const item of sorted) {
      const userId = String(item.pk).replace(/^USER#/, '');
      if (item.kind === 'kyc_state') this.states.set(userId, toKycRecord(item));
      if (item.kind === 'kyc_inquiry')
        this.inquiries.set(String(item.pk).replace(/^INQUIRY#/, ''), {
          userId: String(item.userId),
          referenceId: String(item.referenceId),
        });
      if (item.kind === 'kyc_event')
        this.events.set(String(item.pk).replace(/^EVENT#/, ''), Number(item.expiresAt));
      if (item.kind === 'kyc_history') this.history.push({ ...(item as unknown as StoredHistory), userId });
      if (item.kind === 'kyc_outbox')
        this.outbox.set(String(item.sk), {
          event: item.detail as KycStatusChanged,
          publishedAt: typeof item.publishedAt === 'string' ? item.publishedAt : null,
        });
    }
  }
}

/**
 * DynamoDB Local for one test file (started before its tests, stopped after them); `newStore()`
 * gives each setup a store on a table of its own.
 */
export function localKycTables(): {
  newStore(): Promise<KycTableStore>;
  /** The real consent ledger on a table of its own (the use cases that read both). */
  newLedger(options?: ConsentLedgerOptions): Promise<DynamoDbConsentLedger>;
} {
  let dynamodb: RunningDynamoDb;
  let client: DynamoDBDocumentClient;
  let admin: DynamoDBClient;
  let count = 0;
  beforeAll(async () => {
    dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'kyc-domain-' });
    client = localDocumentClient(dynamodb.endpoint);
    admin = new DynamoDBClient({
      endpoint: dynamodb.endpoint,
      region: 'eu-central-1',
      credentials: localCredentials,
    });
  }, 60_000);
  afterAll(async () => {
    client?.destroy();
    admin?.destroy();
    await dynamodb?.close();
  });
  return {
    async newStore() {
      const table = `kyc-${++count}`;
      const auditTable = `audit-${count}`;
      await admin.send(new CreateTableCommand(createTableInput(tables.kycState, table)));
      await admin.send(new CreateTableCommand(createTableInput(tables.adminAuditLog, auditTable)));
      const store = new KycTableStore(client, table, { auditTable });
      store.audit = new DynamoDbAdminAuditLog(client, auditTable);
      return store;
    },
    async newLedger(options) {
      const table = `ledger-${++count}`;
      await admin.send(new CreateTableCommand(createTableInput(tables.consentLedger, table)));
      return new DynamoDbConsentLedger(client, table, options);
    },
  };
}

/**
 * The one KycStatusChanged an approval by Persona publishes, as the processing path must publish
 * it: its changeId is the id of the store's (only) outbox item, the same on every publish.
 */
export function approvedByPersona(
  store: KycTableStore,
  change: { userId: string; inquiryId: string; at: Date },
) {
  return {
    detailType: 'KycStatusChanged',
    detail: {
      userId: change.userId,
      status: 'approved',
      previousStatus: 'not_started',
      inquiryId: change.inquiryId,
      decidedBy: 'persona',
      occurredAt: change.at.toISOString(),
      reasonCode: 'checks_passed',
      changeId: [...store.outbox.keys()][0],
    },
  };
}
