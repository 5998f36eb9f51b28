import { randomUUID } from 'node:crypto';
import type { VerificationDecisionRequest } from '#contracts/admin-verifications.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import type { Clock, EventPublisher } from '../ports.ts';
import { ConcurrentChangeError, VerificationNotFoundError } from './errors.ts';
import type { KycStore } from './ports.ts';
import { type PublishResult, publishOutboxEntry } from './publish-outbox.ts';

const maxAttempts = 3;

/**
 * An admin's decision. It counts as the newest event (lastEventAt = now), so a Persona event
 * created before the decision cannot undo it; a later Persona event can.
 */
export function decideVerification(deps: { store: KycStore; events: EventPublisher; clock: Clock }) {
  return async (input: {
    adminId: string;
    userId: string;
    decision: VerificationDecisionRequest;
  }): Promise<{ status: KycStatus; changed: boolean; publish: PublishResult | null }> => {
    const eventId = `admin_${randomUUID()}`;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const state = await deps.store.getRecord(input.userId);
      if (state === undefined) throw new VerificationNotFoundError();
      const now = deps.clock.now().toISOString();
      const eventAt = state.lastEventAt !== null && state.lastEventAt > now ? state.lastEventAt : now;
      const result = await deps.store.applyChange({
        userId: input.userId,
        expectedVersion: state.version,
        eventId,
        eventAt,
        requireNewerEvent: false,
        inquiryId: state.inquiryId,
        previousStatus: state.status,
        status: input.decision.decision,
        decidedBy: 'admin',
        actorId: input.adminId,
        reason: input.decision.reason,
        at: now,
      });
      if (result.outcome === 'conflict') continue;
      // A duplicate cannot happen (fresh event id); treat it as done.
      if (result.outcome === 'duplicate')
        return { status: input.decision.decision, changed: false, publish: null };
      const publish =
        result.outboxId !== null && result.event !== null
          ? await publishOutboxEntry(deps, { id: result.outboxId, event: result.event })
          : null;
      return { status: input.decision.decision, changed: result.outboxId !== null, publish };
    }
    throw new ConcurrentChangeError();
  };
}
