import type { KycStatus } from '#contracts/kyc.ts';
import { personaReferenceIdMaxLength } from '#contracts/persona-webhook.ts';
import type { Clock, EventPublisher } from '../ports.ts';
import { ConcurrentChangeError } from './errors.ts';
import type { PersonaEvent } from './persona-event.ts';
import type { KycStore } from './ports.ts';
import { type PublishResult, publishOutboxEntry } from './publish-outbox.ts';
import { isLaterEvent, reasonCodeForEvent, statusForEvent } from './status-mapping.ts';

export type WebhookOutcome =
  | {
      outcome: 'ignored';
      /** `erased`: the person's data was erased (the state carries its retention deadline, ADR 0077). */
      reason: 'unmapped_event' | 'unknown_inquiry' | 'reference_mismatch' | 'superseded_inquiry' | 'erased';
      /** Worth a security log line: someone may be replaying or forging events. */
      security: boolean;
    }
  | { outcome: 'duplicate' }
  /** Not after the last applied event (older, or as old and not outranking it): acknowledged, no change. */
  | { outcome: 'stale' }
  | { outcome: 'applied'; changed: boolean; status: KycStatus; publish: PublishResult | null }
  /**
   * Persona decided `personaStatus` after an admin decided `status`: the admin's decision stands
   * (only another admin changes it); the event is recorded in the history beside it.
   */
  | { outcome: 'held'; status: KycStatus; personaStatus: KycStatus };

/** Concurrent writers for one user resolve in at most this many optimistic rounds each. */
const maxAttempts = 10;

export function processPersonaEvent(deps: { store: KycStore; events: EventPublisher; clock: Clock }) {
  return async (event: PersonaEvent): Promise<WebhookOutcome> => {
    const status = statusForEvent(event.name);
    if (status === undefined || event.inquiry === null) {
      return { outcome: 'ignored', reason: 'unmapped_event', security: false };
    }
    const inquiry = event.inquiry;
    // Persona echoes the reference id this backend gave the inquiry: the user's id. It is read
    // first, with the event's marker, in one call. It is trusted only once the owner is known:
    // either that user's live state names this very inquiry (the state and the inquiry's mapping
    // item are written in one transaction, `recordInquiry`), or the mapping item says so.
    const userId = inquiry.referenceId;
    // Anyone holding the public template id can start an inquiry with any reference id, and Persona
    // signs its events all the same. One that cannot be a user id is refused before it is used as a
    // key: over 2 KB, DynamoDB refuses it, and the retries would end in the dead-letter queue.
    if (userId !== null && (userId === '' || userId.length > personaReferenceIdMaxLength)) {
      return { outcome: 'ignored', reason: 'reference_mismatch', security: true };
    }
    if (userId === null) {
      const owner = await deps.store.findInquiryOwner(inquiry.id);
      const reason = owner === undefined ? 'unknown_inquiry' : 'reference_mismatch';
      return { outcome: 'ignored', reason, security: true };
    }
    /** Why the event is refused when the inquiry's mapping item does not name `userId`. */
    const refusedByMapping = async (): Promise<WebhookOutcome | undefined> => {
      const owner = await deps.store.findInquiryOwner(inquiry.id);
      if (owner === undefined) return { outcome: 'ignored', reason: 'unknown_inquiry', security: true };
      if (userId !== owner.userId)
        return { outcome: 'ignored', reason: 'reference_mismatch', security: true };
      return undefined;
    };
    let ownerKnown = false;

    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const now = deps.clock.now();
      const read = await deps.store.readForEvent(userId, event.eventId, now);
      if (!ownerKnown) {
        const vouched = read.record?.inquiryId === inquiry.id && !read.expiring;
        const refused = vouched ? undefined : await refusedByMapping();
        if (refused) return refused;
        ownerKnown = true;
      }
      // An erased person's record is frozen until its deadline: no status, no history (ADR 0077).
      if (read.expiring) return { outcome: 'ignored', reason: 'erased', security: false };
      // The marker, or the state naming this event as its last: the two are written in one
      // transaction, but a BatchGetItem is not isolated from it (each item is read committed, the
      // pair is not), so a delivery read mid-apply may see the new state before the marker.
      if (read.processed || read.record?.lastEventId === event.eventId) return { outcome: 'duplicate' };
      const state = read.record;
      if (state === undefined || state.inquiryId !== inquiry.id) {
        // The user has started a newer inquiry since: this one no longer decides anything.
        return { outcome: 'ignored', reason: 'superseded_inquiry', security: false };
      }
      // Older than the last applied event, or as old and not outranking it (same status: a no-op).
      if (!isLaterEvent({ at: event.createdAt, status }, { at: state.lastEventAt, status: state.status })) {
        return { outcome: 'stale' };
      }

      // A reviewer's decision is not Persona's to undo: a later event is recorded beside it.
      const held = state.decidedBy === 'admin' && status !== state.status;
      const result = await deps.store.applyChange({
        userId,
        expectedVersion: state.version,
        eventId: event.eventId,
        eventAt: event.createdAt,
        requireNewerEvent: true,
        inquiryId: inquiry.id,
        previousStatus: state.status,
        status,
        decidedBy: 'persona',
        actorId: 'persona',
        reason: event.name,
        reasonCode: reasonCodeForEvent(event.name),
        at: now.toISOString(),
        ...(held ? { held } : {}),
        // Why Persona flagged it, from the event's `included`: written only with the event itself.
        ...(event.flaggedChecks === undefined ? {} : { flaggedChecks: event.flaggedChecks }),
      });
      if (result.outcome === 'duplicate') return { outcome: 'duplicate' };
      if (result.outcome === 'conflict') continue; // re-read: someone else wrote first
      if (held) return { outcome: 'held', status: state.status, personaStatus: status };
      const publish =
        result.outboxId !== null && result.event !== null
          ? await publishOutboxEntry(deps, { id: result.outboxId, event: result.event })
          : null;
      return { outcome: 'applied', changed: result.outboxId !== null, status, publish };
    }
    throw new ConcurrentChangeError();
  };
}
