import { createHash } from 'node:crypto';
import type { StartKycInquiryResponse } from '#contracts/kyc-inquiry.ts';
import { type Caller, requireVerifiedEmail } from '../caller.ts';
import { currentConsent } from '../consent/list-my-consents.ts';
import type { Clock, ConsentLedger, EventPublisher, RateLimiter } from '../ports.ts';
import { withinSignedInLimit } from '../signed-in-limits.ts';
import {
  AlreadyApprovedError,
  ConcurrentChangeError,
  ConsentRequiredError,
  VerificationClosedError,
} from './errors.ts';
import type { InquiryProvider, KycRecord, KycStore } from './ports.ts';
import { publishOutboxEntry } from './publish-outbox.ts';

/** Persona statuses in which the person can still work on the inquiry: resume it. */
const openStatuses = new Set(['created', 'pending']);
/** Submitted and waiting for a decision: nothing to open, no new inquiry either. */
const awaitingStatuses = new Set(['completed', 'needs_review', 'approved']);

/**
 * Persona keeps idempotency keys for 24 h. The key depends on the user and on the inquiry being
 * replaced (none for the first), so a retried request replays the same creation, while a new
 * attempt after a failed or expired inquiry gets a new inquiry.
 */
export function inquiryIdempotencyKey(userId: string, previousInquiryId: string | null): string {
  const digest = createHash('sha256')
    .update(`kyc-inquiry\n${userId}\n${previousInquiryId ?? '-'}`)
    .digest('hex');
  return `kyc-inquiry-${digest.slice(0, 48)}`;
}

export interface StartInquiryDeps {
  ledger: Pick<ConsentLedger, 'listBySubject'>;
  store: KycStore;
  provider: InquiryProvider;
  events: EventPublisher;
  clock: Clock;
  templateId: string;
  /** The per-user limit of this route (ADR 0072). */
  limiter: RateLimiter;
}

/**
 * Creates the caller's Persona inquiry, or resumes the open one. The reference id is always the
 * caller's `sub`. The KYC status stays as it is (`not_started` for a first attempt): only Persona's
 * webhooks (or an admin) change it, so a person who never opens the widget is not "pending".
 * A caller whose email is not verified, or who has not consented, is refused before anything is
 * read from or sent to Persona: each inquiry costs money. A rejection is final unless a reviewer
 * allowed a new attempt: then this starts it (a new inquiry, the status back to `not_started`).
 */
export function startInquiry(deps: StartInquiryDeps) {
  /** Everything that asks Persona, once the caller may (consent given, not decided for good). */
  const startOrResume = async (
    userId: string,
    state: KycRecord | undefined,
  ): Promise<StartKycInquiryResponse> => {
    if (state?.status === 'rejected') return startNewAttempt(deps, userId, state);

    if (state?.inquiryId) {
      const current = await deps.provider.getInquiry(state.inquiryId);
      if (openStatuses.has(current.status)) {
        return {
          inquiryId: current.inquiryId,
          sessionToken: await deps.provider.resumeInquiry(current.inquiryId),
        };
      }
      // Submitted and waiting, unless its data was erased (consent withdrawn, ADR 0075): a redacted
      // inquiry is never decided, so a new consent starts a new one.
      if (awaitingStatuses.has(current.status) && !current.redactedAt)
        return { inquiryId: current.inquiryId };
      // failed, declined, expired, redacted: a new attempt gets a new inquiry.
    }

    const previousInquiryId = state?.inquiryId ?? null;
    const created = await deps.provider.createInquiry({
      referenceId: userId,
      templateId: deps.templateId,
      idempotencyKey: inquiryIdempotencyKey(userId, previousInquiryId),
    });
    if (created.referenceId !== userId) {
      throw new Error('Persona returned an inquiry with another reference id');
    }
    const saved = await deps.store.recordInquiry({
      userId,
      inquiryId: created.inquiryId,
      referenceId: userId,
      expectedVersion: state?.version ?? null,
      at: deps.clock.now().toISOString(),
    });
    if (saved === 'conflict') {
      // A concurrent request of the same user: with the same idempotency key it created (and
      // recorded) this very inquiry. Anything else is a real conflict.
      const now = await deps.store.getRecord(userId);
      if (now?.inquiryId !== created.inquiryId) throw new ConcurrentChangeError();
    }
    const sessionToken = created.sessionToken ?? (await deps.provider.resumeInquiry(created.inquiryId));
    return { inquiryId: created.inquiryId, sessionToken };
  };

  return async (caller: Pick<Caller, 'userId' | 'emailVerified'>): Promise<StartKycInquiryResponse> => {
    requireVerifiedEmail(caller);
    const { userId } = caller;
    const records = await deps.ledger.listBySubject(userId);
    if (currentConsent(records, 'identity_verification') === undefined) throw new ConsentRequiredError();
    const state = await deps.store.getRecord(userId);
    if (state?.status === 'approved') throw new AlreadyApprovedError();
    if (state?.status === 'rejected' && !state.newAttemptAllowed) throw new VerificationClosedError();
    // Each call from here costs a Persona API call: a script with a token is stopped (ADR 0072).
    return withinSignedInLimit(deps.limiter, 'kyc-inquiry', userId, () => startOrResume(userId, state));
  };
}

/** The new attempt a reviewer allowed: a new inquiry, recorded with the status change in one transaction. */
async function startNewAttempt(
  deps: StartInquiryDeps,
  userId: string,
  state: KycRecord,
): Promise<StartKycInquiryResponse> {
  const created = await deps.provider.createInquiry({
    referenceId: userId,
    templateId: deps.templateId,
    idempotencyKey: inquiryIdempotencyKey(userId, state.inquiryId),
  });
  if (created.referenceId !== userId) {
    throw new Error('Persona returned an inquiry with another reference id');
  }
  const saved = await deps.store.startNewAttempt({
    userId,
    expectedVersion: state.version,
    inquiryId: created.inquiryId,
    referenceId: userId,
    attempt: state.attempt + 1,
    at: deps.clock.now().toISOString(),
  });
  if (saved.outcome === 'conflict') {
    // A concurrent "Verify again" of the same person recorded this very inquiry (same idempotency key).
    const now = await deps.store.getRecord(userId);
    if (now?.inquiryId !== created.inquiryId) throw new ConcurrentChangeError();
  } else {
    // Failing to publish now leaves the change to the outbox relay.
    await publishOutboxEntry(deps, saved.outbox);
  }
  const sessionToken = created.sessionToken ?? (await deps.provider.resumeInquiry(created.inquiryId));
  return { inquiryId: created.inquiryId, sessionToken };
}
