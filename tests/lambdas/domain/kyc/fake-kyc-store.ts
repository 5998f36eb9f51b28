import type { KycStatusChanged } from '#contracts/events.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import type {
  ApplyResult,
  HistoryEntry,
  KycRecord,
  KycStore,
  NewAttemptAllowance,
  NewAttemptStart,
  OutboxEntry,
  RecordedInquiry,
  StatusChange,
} from '#lambdas/domain/kyc/ports.ts';
import { statusesOutrankedBy } from '#lambdas/domain/kyc/status-mapping.ts';

/**
 * An in-memory KycStore with the DynamoDB adapter's conditional semantics: version check, the
 * "newer event, same inquiry" condition, the event-id marker, all-or-nothing writes. Every call
 * yields to the event loop first, so concurrent callers interleave like real requests.
 */
/**
 * The one KycStatusChanged an approval by Persona publishes, as the processing path must publish
 * it: its changeId is the id of the store's (only) outbox item, the same on every publish.
 */
export function approvedByPersona(
  store: FakeKycStore,
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

export class FakeKycStore implements KycStore {
  readonly states = new Map<string, KycRecord>();
  readonly inquiries = new Map<string, { userId: string; referenceId: string }>();
  readonly events = new Map<string, number>();
  readonly history: {
    userId: string;
    from: KycStatus;
    to: KycStatus;
    by: HistoryEntry['by'];
    actorId: string;
    reason: string | null;
    reasonCode: string | null;
    action: HistoryEntry['action'];
    eventId: string;
    at: string;
  }[] = [];
  /** Every inquiry recorded against a person (the adapter's `USER#<sub>` / `INQUIRY#<id>` items). */
  readonly userInquiries: (RecordedInquiry & { userId: string })[] = [];
  /** Every listHistories call's user ids (the queue must read histories once, for listed users only). */
  readonly historyReads: string[][] = [];
  readonly outbox = new Map<string, { event: KycStatusChanged; publishedAt: string | null }>();
  failMarkPublished = false;

  private tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  seed(record: Partial<KycRecord> & { userId: string }): void {
    this.states.set(record.userId, {
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
    });
    if (record.inquiryId)
      this.inquiries.set(record.inquiryId, { userId: record.userId, referenceId: record.userId });
  }

  async getState(userId: string) {
    const record = await this.getRecord(userId);
    return (
      record && {
        status: record.status,
        updatedAt: record.updatedAt,
        inquiryId: record.inquiryId,
        reasonCode: record.reasonCode,
        attempt: record.attempt,
        newAttemptAllowed: record.newAttemptAllowed,
      }
    );
  }

  async getRecord(userId: string) {
    await this.tick();
    const record = this.states.get(userId);
    return record && { ...record };
  }

  async findInquiryOwner(inquiryId: string) {
    await this.tick();
    return this.inquiries.get(inquiryId);
  }

  /** Every readForEvent call's user id (the processing path reads once per attempt). */
  readonly eventReads: string[] = [];
  /** Users whose state carries an erasure's retention deadline. */
  readonly expiring = new Set<string>();

  async readForEvent(userId: string, eventId: string, now: Date) {
    await this.tick();
    this.eventReads.push(userId);
    const record = this.states.get(userId);
    const expiresAt = this.events.get(eventId);
    return {
      record: record && { ...record },
      expiring: this.expiring.has(userId),
      processed: expiresAt !== undefined && expiresAt > now.getTime() / 1000,
    };
  }

  async recordInquiry(input: {
    userId: string;
    inquiryId: string;
    referenceId: string;
    expectedVersion: number | null;
    at: string;
  }): Promise<'saved' | 'conflict'> {
    await this.tick();
    const current = this.states.get(input.userId);
    const owner = this.inquiries.get(input.inquiryId);
    if (input.expectedVersion === null ? current !== undefined : current?.version !== input.expectedVersion) {
      return 'conflict';
    }
    if (owner && owner.userId !== input.userId) return 'conflict';
    this.states.set(input.userId, {
      status: current?.status ?? 'not_started',
      updatedAt: input.at,
      inquiryId: input.inquiryId,
      referenceId: input.referenceId,
      version: (current?.version ?? 0) + 1,
      lastEventId: current?.lastEventId ?? null,
      lastEventAt: current?.lastEventAt ?? null,
      decidedBy: current?.decidedBy ?? null,
      reasonCode: current?.reasonCode ?? null,
      attempt: current?.attempt || 1,
      newAttemptAllowed: current?.newAttemptAllowed ?? false,
      userId: input.userId,
    });
    this.inquiries.set(input.inquiryId, { userId: input.userId, referenceId: input.referenceId });
    this.recordUserInquiry(input.userId, input.inquiryId, current?.attempt || 1, input.at);
    return 'saved';
  }

  private recordUserInquiry(userId: string, inquiryId: string, attempt: number, createdAt: string) {
    if (!this.userInquiries.some((entry) => entry.inquiryId === inquiryId)) {
      this.userInquiries.push({ userId, inquiryId, attempt, createdAt });
    }
  }

  async allowNewAttempt(input: NewAttemptAllowance): Promise<'saved' | 'conflict'> {
    await this.tick();
    const state = this.states.get(input.userId);
    if (!state || state.version !== input.expectedVersion || state.status !== 'rejected') return 'conflict';
    this.states.set(input.userId, {
      ...state,
      newAttemptAllowed: true,
      version: state.version + 1,
      updatedAt: input.at,
    });
    this.history.push({
      userId: input.userId,
      from: 'rejected',
      to: 'rejected',
      by: 'admin',
      actorId: input.actorId,
      reason: input.reason,
      reasonCode: null,
      action: 'new_attempt_allowed',
      eventId: `allow_${state.version + 1}`,
      at: input.at,
    });
    return 'saved';
  }

  async startNewAttempt(
    input: NewAttemptStart,
  ): Promise<{ outcome: 'saved'; outbox: OutboxEntry } | { outcome: 'conflict' }> {
    await this.tick();
    const state = this.states.get(input.userId);
    const owner = this.inquiries.get(input.inquiryId);
    if (
      !state ||
      state.version !== input.expectedVersion ||
      state.status !== 'rejected' ||
      !state.newAttemptAllowed ||
      (owner && owner.userId !== input.userId)
    ) {
      return { outcome: 'conflict' };
    }
    const eventId = `attempt_${input.attempt}_${input.inquiryId}`;
    this.states.set(input.userId, {
      ...state,
      status: 'not_started',
      inquiryId: input.inquiryId,
      referenceId: input.referenceId,
      attempt: input.attempt,
      version: state.version + 1,
      updatedAt: input.at,
      decidedBy: 'user',
      lastEventId: eventId,
      lastEventAt: null,
      reasonCode: null,
      newAttemptAllowed: false,
    });
    this.inquiries.set(input.inquiryId, { userId: input.userId, referenceId: input.referenceId });
    this.recordUserInquiry(input.userId, input.inquiryId, input.attempt, input.at);
    this.history.push({
      userId: input.userId,
      from: 'rejected',
      to: 'not_started',
      by: 'user',
      actorId: input.userId,
      reason: null,
      reasonCode: null,
      action: 'status_changed',
      eventId,
      at: input.at,
    });
    const event: KycStatusChanged = {
      userId: input.userId,
      status: 'not_started',
      previousStatus: 'rejected',
      inquiryId: input.inquiryId,
      decidedBy: 'user',
      occurredAt: input.at,
    };
    const id = `${input.at}#${eventId}`;
    this.outbox.set(id, { event, publishedAt: null });
    return { outcome: 'saved', outbox: { id, event } };
  }

  async listInquiries(userId: string) {
    await this.tick();
    return this.userInquiries
      .filter((entry) => entry.userId === userId)
      .map(({ inquiryId, attempt, createdAt }) => ({ inquiryId, attempt, createdAt }));
  }

  async applyChange(change: StatusChange): Promise<ApplyResult> {
    await this.tick();
    const nowSeconds = new Date(change.at).getTime() / 1000;
    const marker = this.events.get(change.eventId);
    if (marker !== undefined && marker >= nowSeconds) return { outcome: 'duplicate' };
    const state = this.states.get(change.userId);
    if (!state || state.version !== change.expectedVersion) return { outcome: 'conflict' };
    if (
      change.requireNewerEvent &&
      (state.inquiryId !== change.inquiryId ||
        // The DynamoDB store's condition: newer, or as new with an outranked stored status.
        !(
          state.lastEventAt === null ||
          state.lastEventAt < change.eventAt ||
          (state.lastEventAt === change.eventAt && statusesOutrankedBy(change.status).includes(state.status))
        ))
    ) {
      return { outcome: 'conflict' };
    }
    const changed = change.status !== change.previousStatus;
    this.states.set(change.userId, {
      ...state,
      version: state.version + 1,
      lastEventId: change.eventId,
      lastEventAt: change.eventAt,
      ...(changed
        ? {
            status: change.status,
            updatedAt: change.at,
            decidedBy: change.decidedBy,
            reasonCode: change.reasonCode,
            newAttemptAllowed: false,
          }
        : {}),
    });
    this.events.set(change.eventId, nowSeconds + 45 * 24 * 3600);
    if (!changed) return { outcome: 'applied', outboxId: null, event: null };
    this.history.push({
      userId: change.userId,
      from: change.previousStatus,
      to: change.status,
      by: change.decidedBy,
      actorId: change.actorId,
      reason: change.reason,
      reasonCode: change.reasonCode,
      action: 'status_changed',
      eventId: change.eventId,
      at: change.at,
    });
    const event: KycStatusChanged = {
      userId: change.userId,
      status: change.status,
      previousStatus: change.previousStatus,
      inquiryId: change.inquiryId,
      decidedBy: change.decidedBy,
      occurredAt: change.at,
      ...(change.reasonCode ? { reasonCode: change.reasonCode } : {}),
    };
    const outboxId = `${change.at}#${change.eventId}`;
    this.outbox.set(outboxId, { event, publishedAt: null });
    return { outcome: 'applied', outboxId, event };
  }

  async listByStatus(status: KycStatus) {
    await this.tick();
    return [...this.states.values()].filter((record) => record.status === status);
  }

  async listHistories(userIds: readonly string[], limitPerUser: number) {
    await this.tick();
    this.historyReads.push([...userIds]);
    const histories = new Map<string, HistoryEntry[]>();
    for (const userId of userIds) {
      const entries = this.history
        .filter((entry) => entry.userId === userId)
        .slice(-limitPerUser)
        .map(({ from, to, by, actorId, reason, reasonCode, action, at }) => ({
          from,
          to,
          by,
          actorId,
          reason,
          reasonCode,
          action,
          at,
        }));
      if (entries.length > 0) histories.set(userId, entries);
    }
    return histories;
  }

  async listUnpublished(limit: number): Promise<OutboxEntry[]> {
    await this.tick();
    return [...this.outbox.entries()]
      .filter(([, item]) => item.publishedAt === null)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .slice(0, limit)
      .map(([id, item]) => ({ id, event: item.event }));
  }

  async markPublished(outboxId: string, at: Date) {
    await this.tick();
    if (this.failMarkPublished) throw new Error('ProvisionedThroughputExceededException');
    const item = this.outbox.get(outboxId);
    if (item) item.publishedAt = at.toISOString();
  }
}
