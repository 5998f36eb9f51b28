import type { KycStatusChanged } from '#contracts/events.ts';
import type { FlaggedCheck } from '#contracts/flagged-checks.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import type { PersonaInquiryStatus } from '#contracts/persona-webhook.ts';
import type { StoredAuditEntry } from '../admin-audit/trail.ts';
import type { KycStateReader } from '../ports.ts';
import type { RegistrationRecord } from '../registration/ports.ts';

// Ports of the KYC feature. The DynamoDB adapters (lambdas/adapters/dynamodb-kyc-store.ts, the state
// writer; dynamodb-kyc-outbox.ts; dynamodb-kyc-admin-queue.ts) and the Persona client
// (lambdas/adapters/persona-client.ts) implement them.

/** `user`: the person started a new attempt a reviewer allowed. */
export type DecidedBy = 'persona' | 'admin' | 'user';

/** The per-user state item, as the use cases need it. */
export interface KycRecord {
  userId: string;
  status: KycStatus;
  updatedAt: string;
  inquiryId: string | null;
  referenceId: string | null;
  /** Optimistic-concurrency version: every write checks and increments it. */
  version: number;
  lastEventId: string | null;
  /** `created-at` of the last applied Persona event (or the time of an admin decision). */
  lastEventAt: string | null;
  decidedBy: DecidedBy | null;
  /** The current decision's reason code; null while undecided. */
  reasonCode: string | null;
  /** Attempts used (0 before the first inquiry). */
  attempt: number;
  /** A reviewer allowed a new attempt after the rejection; not started yet. */
  newAttemptAllowed: boolean;
  /**
   * The person's data was erased: the state carries the erasure's retention deadline (ADR 0031)
   * and nothing changes it any more (ADR 0077). Absent: false.
   */
  erased?: boolean;
  /** Four-eyes (ADR 0080): a proposed decision waiting for a second reviewer; absent: none. */
  proposal?: KycProposal | null;
  /**
   * The checks that failed, as the last applied Persona event of the current inquiry listed them
   * (ADR 0082's amendment); absent or empty: none known.
   */
  flaggedChecks?: FlaggedCheck[];
}

/** One status change (or, when `status` equals `previousStatus`, only an applied event). */
export interface StatusChange {
  userId: string;
  /** The change applies only if the state item still has this version. */
  expectedVersion: number;
  /** Persona's event id, or a generated id for an admin decision; stored once (dedupe). */
  eventId: string;
  /** Stored as `lastEventAt`. */
  eventAt: string;
  /**
   * Persona events: the store refuses the change unless the event comes after the last applied
   * one (`eventAt` newer than the stored `lastEventAt`, or the same time and `status` outranking
   * the stored status: `isLaterEvent`) and the state's inquiry is `inquiryId` (ordering is decided
   * in the database).
   */
  requireNewerEvent: boolean;
  inquiryId: string | null;
  previousStatus: KycStatus;
  status: KycStatus;
  decidedBy: DecidedBy;
  /** Who decided: `persona`, or the admin's user id. */
  actorId: string;
  /** The admin's internal note, or the Persona event name. */
  reason: string | null;
  /** The decision's reason code (stored on the state while the decision stands); null for none. */
  reasonCode: string | null;
  /** Server time of the write. */
  at: string;
  /**
   * Persona decided `status` after an admin had decided (`previousStatus`, which stays): the
   * event is recorded, as applied and in the history (`decision_held`), and changes nothing else.
   */
  held?: boolean;
  /**
   * A reviewer's decision: its admin-trail entry, written in the same transaction as the change
   * (no decision without its entry, no entry without its decision; ADR 0078). Left out when the
   * status does not change.
   */
  audit?: StoredAuditEntry;
  /**
   * Persona events whose `included` held verifications: the failed checks, stored in place of the
   * previous summary (in the same conditional write, so a stale event never replaces a newer one).
   * Absent: the stored summary stays.
   */
  flaggedChecks?: readonly FlaggedCheck[];
}

export type ApplyResult =
  /** Written; `outboxId` names the outbox item to publish (null when the status did not change). */
  | { outcome: 'applied'; outboxId: string | null; event: KycStatusChanged | null }
  /** The event id was already processed: nothing written. */
  | { outcome: 'duplicate' }
  /** The state changed since it was read (version or ordering condition): nothing written. */
  | { outcome: 'conflict' };

/** One recorded status transition (the history item `applyChange` writes). */
export interface HistoryEntry {
  from: KycStatus;
  to: KycStatus;
  by: DecidedBy;
  /** `persona`, or the deciding admin's user id. */
  actorId: string;
  /** The admin's reason, or the Persona event name. */
  reason: string | null;
  reasonCode: string | null;
  /**
   * A status change; a reviewer allowing a new attempt (the status stays rejected); or Persona's
   * decision `to` arriving after an admin's, which stands (the status stays `from`).
   */
  action: 'status_changed' | 'new_attempt_allowed' | 'decision_held' | 'decision_proposed';
  at: string;
}

/** Four-eyes (ADR 0080): a reviewer's decision waiting for a second reviewer's confirmation. */
export interface KycProposal {
  decision: 'approved' | 'rejected';
  reasonCode: string;
  reason: string | null;
  /** The proposing reviewer's user id. */
  adminId: string;
  at: string;
  /** The status it was proposed on: a proposal counts only while the status is still this one. */
  fromStatus: KycStatus;
}

/** A reviewer proposing a decision (`KycStore.propose`): the status stays, the proposal is stored. */
export interface DecisionProposal {
  userId: string;
  expectedVersion: number;
  proposal: KycProposal;
  /** Its admin-trail entry, in the same transaction (ADR 0078). */
  audit: StoredAuditEntry;
}

/** A reviewer allowing a rejected person a new attempt (`KycStore.allowNewAttempt`). */
export interface NewAttemptAllowance {
  userId: string;
  /** The rejected state's version the reviewer saw. */
  expectedVersion: number;
  /** The reviewer's user id. */
  actorId: string;
  /** Internal: the history keeps it. */
  reason: string;
  at: string;
  /** Its admin-trail entry, written in the same transaction (ADR 0078). */
  audit?: StoredAuditEntry;
}

/** The person starting the new attempt a reviewer allowed (`KycStore.startNewAttempt`). */
export interface NewAttemptStart {
  userId: string;
  expectedVersion: number;
  /** The new attempt's inquiry. */
  inquiryId: string;
  referenceId: string;
  /** The attempt it is (the previous one + 1). */
  attempt: number;
  at: string;
}

/** An inquiry recorded against the person. */
export interface RecordedInquiry {
  inquiryId: string;
  attempt: number;
  createdAt: string;
}

export interface OutboxEntry {
  id: string;
  event: KycStatusChanged;
}

/** `KycStore.readForEvent`'s answer. */
export interface EventRead {
  record: KycRecord | undefined;
  /**
   * The state item carries an erasure's retention deadline (ADR 0031): its inquiry mapping may
   * already be gone, so it vouches for no inquiry.
   */
  expiring: boolean;
  processed: boolean;
}

/** The outbox of status changes: the writer's transactions add its items; they are published now or by the relay. */
export interface KycOutbox {
  listUnpublished(limit: number): Promise<OutboxEntry[]>;
  markPublished(outboxId: string, at: Date): Promise<void>;
}

/** The admin queue's reads (ADR 0028). */
/** Which part of a status's queue to read (ADR 0082). */
export interface QueuePage {
  order: 'newest' | 'oldest';
  /** The last item of the previous page; the read starts after it. */
  after?: { updatedAt: string; userId: string };
  limit: number;
}

export interface KycAdminQueue {
  /**
   * State items with this status in `order` (`newest`: change time descending, then user id
   * descending; `oldest`: both ascending), strictly after `after` in that order, at most `limit`
   * (fewer only when no more exist). Erased states are left out (ADR 0077).
   */
  listByStatus(status: KycStatus, page: QueuePage): Promise<KycRecord[]>;
  /** Each user's newest `limitPerUser` transitions, oldest first (users without any are absent). */
  listHistories(userIds: readonly string[], limitPerUser: number): Promise<Map<string, HistoryEntry[]>>;
}

/**
 * The KYC feature's store: the state writer (every status change in one transaction with its
 * history, event marker and outbox item), the outbox and the admin queue's reads.
 */
export interface KycStore extends KycStateReader, KycOutbox, KycAdminQueue {
  getRecord(userId: string): Promise<KycRecord | undefined>;
  /** The user an inquiry was created for by this backend (the inquiry mapping item). */
  findInquiryOwner(inquiryId: string): Promise<{ userId: string; referenceId: string } | undefined>;
  /**
   * What applying a Persona event about `userId` needs, in one strongly consistent read: the user's
   * state and whether the event was processed already (an expired marker was not).
   */
  readForEvent(userId: string, eventId: string, now: Date): Promise<EventRead>;
  /**
   * Records a new inquiry for the user in one transaction: the state item (created with
   * `not_started` and attempt 1, or updated if `expectedVersion` still matches: an inquiry that
   * expired unsubmitted is replaced within the same attempt), the inquiry mapping, and the inquiry
   * recorded against the person. A replaced inquiry's failed checks are cleared.
   */
  recordInquiry(input: {
    userId: string;
    inquiryId: string;
    referenceId: string;
    expectedVersion: number | null;
    at: string;
  }): Promise<'saved' | 'conflict'>;
  /**
   * A reviewer allows a rejected person a new attempt, in one transaction: the state (still
   * `rejected`, at `expectedVersion`) is marked and the history records who and why.
   */
  allowNewAttempt(input: NewAttemptAllowance): Promise<'saved' | 'conflict'>;
  /**
   * Consent withdrawn while a submitted verification waited for a decision (ADR 0075): its inquiry
   * was redacted, so nobody can decide it; the state goes back to `not_started` (by the user), so
   * it leaves the review queue and a new consent starts a new inquiry. Only from `pending` on that
   * inquiry; anything else (decided meanwhile, another inquiry) is left as it is.
   */
  stopAfterWithdrawal(input: {
    userId: string;
    expectedVersion: number;
    inquiryId: string;
    at: string;
  }): Promise<{ outcome: 'saved'; outbox: OutboxEntry } | { outcome: 'conflict' }>;
  /** Stores a proposal on the state (which keeps its status), with its history item and trail entry. */
  propose(input: DecisionProposal): Promise<'saved' | 'conflict'>;
  /**
   * The person starts the new attempt a reviewer allowed, in one transaction: the state goes from
   * `rejected` (at `expectedVersion`, with the allowance) to `not_started` with the new inquiry and
   * the next attempt number, the reason code, the failed checks and the last event time are
   * cleared (the new inquiry's events are ordered among themselves), the inquiry is recorded
   * against the person, and the change gets its history and outbox items.
   */
  startNewAttempt(
    input: NewAttemptStart,
  ): Promise<{ outcome: 'saved'; outbox: OutboxEntry } | { outcome: 'conflict' }>;
  /** Every inquiry this backend created for the person, oldest first (erasure finds them all). */
  listInquiries(userId: string): Promise<RecordedInquiry[]>;
  /**
   * One transaction: the conditional state update, the history item, the processed-event marker
   * (`attribute_not_exists`) and the outbox item. Duplicates and reordering resolve here.
   */
  applyChange(change: StatusChange): Promise<ApplyResult>;
}

/**
 * The registrations of several users at once (the admin queue shows each user's organization).
 * The registration store's adapter implements it.
 */
export interface RegistrationLookup {
  getRegistrations(userIds: readonly string[]): Promise<Map<string, RegistrationRecord>>;
}

/** Persona's inquiry statuses (its API's `data.attributes.status` values), and any it adds later. */
export type InquiryStatus = PersonaInquiryStatus | (string & {});

export interface Inquiry {
  inquiryId: string;
  status: InquiryStatus;
  referenceId: string | null;
  /** Present when Persona returned one (create, resume). */
  sessionToken: string | null;
  /** When its personal data was erased (`redacted-at`); such an inquiry is never decided. */
  redactedAt?: string | null;
}

/** The identity-verification provider's inquiry API (Persona). */
export interface InquiryProvider {
  createInquiry(input: { referenceId: string; templateId: string; idempotencyKey: string }): Promise<Inquiry>;
  getInquiry(inquiryId: string): Promise<Inquiry>;
  /** A fresh session token for an open inquiry. */
  resumeInquiry(inquiryId: string): Promise<string>;
}
