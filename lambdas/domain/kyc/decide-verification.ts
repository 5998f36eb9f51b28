import { randomUUID } from 'node:crypto';
import type { VerificationDecisionRequest } from '#contracts/admin-verifications.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import { maxVerificationAttempts } from '#contracts/kyc-reasons.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import { type AdminAuditLog, chainEntry, decisionAction } from '../admin-audit/trail.ts';
import type { Clock, EventPublisher } from '../ports.ts';
import {
  AttemptsExhaustedError,
  ConcurrentChangeError,
  OwnVerificationError,
  SecondReviewerRequiredError,
  VerificationNotFoundError,
  VerificationNotRejectedError,
  VerificationNotSubmittedError,
} from './errors.ts';
import type { KycRecord, KycStore, RegistrationLookup } from './ports.ts';
import { type PublishResult, publishOutboxEntry } from './publish-outbox.ts';

/** A round is lost to a concurrent change of the state, or to another append to the admin trail. */
const maxRounds = 5;

/** The trail's head, read in each round: the entry chains onto it in the change's transaction. */
type TrailHead = Pick<AdminAuditLog, 'head'>;

/**
 * A verification can be decided once an inquiry of the current attempt was submitted: Persona
 * reported it completed (pending) or decided it, or a reviewer decided it before. `not_started`
 * (no inquiry, one opened and cancelled, or a new attempt not finished) has no evidence to decide on.
 */
export function isSubmitted(record: Pick<KycRecord, 'status'>): boolean {
  return record.status !== 'not_started';
}

/**
 * An admin's decision. It counts as the newest event (lastEventAt = now), so a Persona event
 * created before the decision is stale; one created later is recorded in the history beside it
 * and changes nothing (`processPersonaEvent`: held). Only an admin's decision changes an admin's
 * decision. An admin never decides on their own verification, and nobody decides on one that was
 * never submitted.
 */
/**
 * Four-eyes (ADR 0080): with the stage's `fourEyes` on, approving a defense or government
 * organization and reversing any decision need a second, different reviewer.
 */
export function needsSecondReviewer(
  previousStatus: KycStatus,
  status: KycStatus,
  organizationType: OrganizationType | null,
): boolean {
  const reversal =
    (previousStatus === 'approved' || previousStatus === 'rejected') && previousStatus !== status;
  const sensitive = organizationType === 'defense' || organizationType === 'government';
  return reversal || (status === 'approved' && sensitive);
}

export type DecisionOutcome = 'decided' | 'proposed';

export function decideVerification(deps: {
  store: KycStore;
  events: EventPublisher;
  clock: Clock;
  audit: TrailHead;
  /** The stage's four-eyes setting, read at each decision (ADR 0080); off when absent. */
  fourEyes?: () => boolean;
  /** The organization's type, from the registration (read only when four-eyes is on). */
  registrations?: RegistrationLookup;
}) {
  return async (input: {
    adminId: string;
    userId: string;
    decision: VerificationDecisionRequest;
    /** The API request, named in the trail entry. */
    requestId?: string;
  }): Promise<{
    status: KycStatus;
    changed: boolean;
    publish: PublishResult | null;
    outcome: DecisionOutcome;
  }> => {
    if (input.adminId === input.userId) throw new OwnVerificationError();
    const eventId = `admin_${randomUUID()}`;
    const fourEyes = deps.fourEyes?.() ?? false;
    let organizationType: OrganizationType | null | undefined;
    for (let round = 0; round < maxRounds; round++) {
      const state = await deps.store.getRecord(input.userId);
      // An erased person's verification is no one's to decide any more (ADR 0077).
      if (state === undefined || state.erased) throw new VerificationNotFoundError();
      if (!isSubmitted(state)) throw new VerificationNotSubmittedError();
      const clockNow = deps.clock.now();
      const now = clockNow.toISOString();
      const eventAt = state.lastEventAt !== null && state.lastEventAt > now ? state.lastEventAt : now;
      const status = input.decision.decision;
      let proposedBy: { adminId: string; at: string } | undefined;
      if (fourEyes && status !== state.status) {
        if (organizationType === undefined) {
          const registrations = await deps.registrations?.getRegistrations([input.userId]);
          const registration = registrations?.get(input.userId);
          organizationType = registration?.organizationType ?? null;
        }
        if (needsSecondReviewer(state.status, status, organizationType)) {
          const standing =
            state.proposal && state.proposal.fromStatus === state.status && state.proposal.decision === status
              ? state.proposal
              : undefined;
          if (standing && standing.adminId === input.adminId) throw new SecondReviewerRequiredError();
          if (standing) proposedBy = { adminId: standing.adminId, at: standing.at };
          else {
            // The first reviewer's decision is a proposal: the person's status stays as it is.
            const saved = await deps.store.propose({
              userId: input.userId,
              expectedVersion: state.version,
              proposal: {
                decision: status,
                reasonCode: input.decision.reasonCode,
                reason: input.decision.reason || null,
                adminId: input.adminId,
                at: now,
                fromStatus: state.status,
              },
              audit: chainEntry(
                {
                  actorType: 'admin',
                  actorId: input.adminId,
                  action: 'verification_proposed',
                  targetType: 'verification',
                  targetId: input.userId,
                  reasonCode: input.decision.reasonCode,
                  reason: input.decision.reason || null,
                  details: {
                    from: state.status,
                    to: status,
                    inquiryId: state.inquiryId,
                    attempt: state.attempt,
                    // A reviewer proposing the other decision replaces the standing proposal.
                    replacesProposalBy: state.proposal?.adminId ?? null,
                  },
                  requestId: input.requestId ?? null,
                },
                await deps.audit.head(),
                { entryId: randomUUID(), recordedAt: clockNow },
              ),
            });
            if (saved === 'conflict') continue;
            return { status: state.status, changed: false, publish: null, outcome: 'proposed' };
          }
        }
      }
      // Who decided what, on whom and why, in the trail, with the change itself (ADR 0078); a
      // decision that changes nothing is no decision and is not recorded.
      const audit =
        status === state.status
          ? undefined
          : chainEntry(
              {
                actorType: 'admin',
                actorId: input.adminId,
                action: decisionAction(state.status, status),
                targetType: 'verification',
                targetId: input.userId,
                reasonCode: input.decision.reasonCode,
                reason: input.decision.reason || null,
                details: {
                  from: state.status,
                  to: status,
                  inquiryId: state.inquiryId,
                  attempt: state.attempt,
                  // Four-eyes: the reviewer whose proposal this decision confirms (ADR 0080).
                  ...(proposedBy ? { proposedBy: proposedBy.adminId, proposedAt: proposedBy.at } : {}),
                },
                requestId: input.requestId ?? null,
              },
              await deps.audit.head(),
              { entryId: randomUUID(), recordedAt: clockNow },
            );
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
        reason: input.decision.reason || null,
        reasonCode: input.decision.reasonCode,
        at: now,
        ...(audit ? { audit } : {}),
      });
      if (result.outcome === 'conflict') continue;
      // A duplicate cannot happen (fresh event id); treat it as done.
      if (result.outcome === 'duplicate')
        return { status: input.decision.decision, changed: false, publish: null, outcome: 'decided' };
      const publish =
        result.outboxId !== null && result.event !== null
          ? await publishOutboxEntry(deps, { id: result.outboxId, event: result.event })
          : null;
      return {
        status: input.decision.decision,
        changed: result.outboxId !== null,
        publish,
        outcome: 'decided',
      };
    }
    throw new ConcurrentChangeError();
  };
}

/**
 * A reviewer allows a rejected person a new attempt (at most `maxVerificationAttempts` in all).
 * The status stays `rejected` until the person starts it ("Verify again"). Allowing again what is
 * already allowed changes nothing and answers the same.
 */
export function allowNewAttempt(deps: { store: KycStore; clock: Clock; audit: TrailHead }) {
  return async (input: {
    adminId: string;
    userId: string;
    reason: string;
    requestId?: string;
  }): Promise<{ status: KycStatus; attempt: number; changed: boolean }> => {
    if (input.adminId === input.userId) throw new OwnVerificationError();
    for (let round = 0; round < maxRounds; round++) {
      const state = await deps.store.getRecord(input.userId);
      if (state === undefined || state.erased) throw new VerificationNotFoundError();
      if (state.status !== 'rejected') throw new VerificationNotRejectedError();
      if (state.newAttemptAllowed) return { status: state.status, attempt: state.attempt, changed: false };
      if (state.attempt >= maxVerificationAttempts) throw new AttemptsExhaustedError(maxVerificationAttempts);
      const now = deps.clock.now();
      const audit = chainEntry(
        {
          actorType: 'admin',
          actorId: input.adminId,
          action: 'new_attempt_allowed',
          targetType: 'verification',
          targetId: input.userId,
          reasonCode: null,
          reason: input.reason,
          details: { attempt: state.attempt, inquiryId: state.inquiryId },
          requestId: input.requestId ?? null,
        },
        await deps.audit.head(),
        { entryId: randomUUID(), recordedAt: now },
      );
      const saved = await deps.store.allowNewAttempt({
        userId: input.userId,
        expectedVersion: state.version,
        actorId: input.adminId,
        reason: input.reason,
        at: now.toISOString(),
        audit,
      });
      if (saved === 'saved') return { status: state.status, attempt: state.attempt, changed: true };
    }
    throw new ConcurrentChangeError();
  };
}
