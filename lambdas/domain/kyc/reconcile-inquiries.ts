import type { PersonaEventReceived } from '#contracts/events.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import type { Clock, EventPublisher } from '../ports.ts';
import { normaliseInstant } from './persona-event.ts';
import type { Inquiry, KycRecord } from './ports.ts';
import { statusForEvent } from './status-mapping.ts';

// Reconciliation for webhooks Persona never delivered (ADR 0038). Persona gives up after about
// 51 hours of retries; this job finds users still undecided some time after their inquiry moved,
// reads each inquiry from Persona and, when Persona knows more than we do, publishes the
// PersonaEventReceived the webhook would have published. process-persona-event applies it, so
// dedupe (the event id), ordering (created-at, then status: ADR 0030), the inquiry-owner and
// reference checks, the transaction, the outbox and the single KycStatusChanged are the webhook's own.

/** Defaults of the rule (its row in lambdas/event-rules.ts sets them as environment variables). */
export const reconcileDefaults = {
  /** A webhook normally lands within seconds; 2 hours leaves Persona's first retries (3 s, 64 s, 729 s) room. */
  minAgeMinutes: 120,
  /** Persona allows 300 requests a minute, shared with inquiry starts: a run uses at most a third. */
  maxInquiriesPerRun: 100,
} as const;

/** Failures in a row after which a run stops (Persona or the bus is down: the next run retries). */
export const maxConsecutiveFailures = 3;

/** The largest cap a run accepts, whatever the configuration says. */
export const maxInquiriesPerRunLimit = 250;

/** The KYC store's read for the job: undecided states whose last change is older than `before`. */
export interface StaleInquiryFinder {
  /**
   * States with status `pending`, or `not_started` with an inquiry, whose `updatedAt` (the last
   * status change, or when the inquiry was recorded) is before `before`; newest first, at most `limit`.
   */
  listUndecidedBefore(before: string, limit: number): Promise<KycRecord[]>;
}

/** The inquiry, with the times Persona records for each step (null when it has not happened). */
export interface InquirySnapshot extends Inquiry {
  completedAt: string | null;
  failedAt: string | null;
  markedForReviewAt: string | null;
  decisionedAt: string | null;
}

export interface InquiryReader {
  getInquirySnapshot(inquiryId: string): Promise<InquirySnapshot>;
}

/**
 * Persona's inquiry status -> the webhook event that announces it and the attribute holding its
 * time. created, pending, expired (and unknown statuses) are not submissions: nothing to apply.
 */
const eventByInquiryStatus: Readonly<
  Record<
    string,
    {
      name: string;
      at: 'completedAt' | 'failedAt' | 'markedForReviewAt' | 'decisionedAt';
    }
  >
> = {
  completed: { name: 'inquiry.completed', at: 'completedAt' },
  needs_review: { name: 'inquiry.marked-for-review', at: 'markedForReviewAt' },
  approved: { name: 'inquiry.approved', at: 'decisionedAt' },
  declined: { name: 'inquiry.declined', at: 'decisionedAt' },
  failed: { name: 'inquiry.failed', at: 'failedAt' },
};

/** The prefix of every event id the job makes up, so logs and markers tell them from Persona's `evt_`. */
export const reconciledEventIdPrefix = 'reconcile';

/**
 * The event Persona would have sent for the inquiry's current status, or null when there is
 * none to apply. The id is derived from the inquiry, the event and Persona's time for it, so a
 * second run (or a concurrent one) makes the same id and the processor's dedupe drops it; the
 * created-at is Persona's own time for that step, so ordering against real webhooks holds (a late
 * webhook for the same status is as new or newer and changes nothing).
 */
export function synthesiseEvent(inquiry: InquirySnapshot): PersonaEventReceived | null {
  const mapping = Object.hasOwn(eventByInquiryStatus, inquiry.status)
    ? eventByInquiryStatus[inquiry.status]
    : undefined;
  if (mapping === undefined) return null;
  const at = inquiry[mapping.at];
  if (at === null) return null;
  let createdAt: string;
  try {
    createdAt = normaliseInstant(at);
  } catch {
    return null;
  }
  return {
    eventId: `${reconciledEventIdPrefix}:${inquiry.inquiryId}:${mapping.name}:${createdAt}`,
    name: mapping.name,
    createdAt,
    inquiryId: inquiry.inquiryId,
    inquiryStatus: inquiry.status,
    referenceId: inquiry.referenceId,
  };
}

export interface ReconcileOptions {
  minAgeMinutes: number;
  maxInquiries: number;
}

export interface ReconcileResult {
  /** Undecided states old enough to check. */
  checked: number;
  /** Events published for the processor (it still decides whether they change anything). */
  published: number;
  /** Persona reports nothing newer than the state (not submitted, or the same status). */
  unchanged: number;
  failed: number;
  /** Candidates left for the next run after `maxConsecutiveFailures` failures in a row. */
  skipped: number;
  errors: unknown[];
}

export function reconcileInquiries(deps: {
  finder: StaleInquiryFinder;
  inquiries: InquiryReader;
  events: EventPublisher;
  clock: Clock;
}) {
  return async (options: ReconcileOptions): Promise<ReconcileResult> => {
    const before = new Date(deps.clock.now().getTime() - options.minAgeMinutes * 60_000).toISOString();
    const limit = Math.max(0, Math.min(options.maxInquiries, maxInquiriesPerRunLimit));
    const candidates = limit === 0 ? [] : await deps.finder.listUndecidedBefore(before, limit);
    const result: ReconcileResult = {
      checked: 0,
      published: 0,
      unchanged: 0,
      failed: 0,
      skipped: 0,
      errors: [],
    };
    let failuresInARow = 0;
    // One at a time: a run stays far below Persona's rate limit and one failure costs one inquiry.
    for (const [index, state] of candidates.entries()) {
      if (failuresInARow >= maxConsecutiveFailures) {
        result.skipped = candidates.length - index;
        break;
      }
      if (state.inquiryId === null) continue;
      result.checked += 1;
      try {
        const inquiry = await deps.inquiries.getInquirySnapshot(state.inquiryId);
        const event = synthesiseEvent(inquiry);
        if (event === null || !changesStatus(event, state.status)) {
          // Awaiting a human review at Persona while pending here is right: no event, no flapping.
          result.unchanged += 1;
          failuresInARow = 0;
          continue;
        }
        await deps.events.publish([{ detailType: 'PersonaEventReceived', detail: event }]);
        result.published += 1;
        failuresInARow = 0;
      } catch (error) {
        failuresInARow += 1;
        result.failed += 1;
        result.errors.push(error);
      }
    }
    return result;
  };
}

function changesStatus(event: PersonaEventReceived, current: KycStatus): boolean {
  return statusForEvent(event.name) !== current;
}
