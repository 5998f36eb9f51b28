import type { ConsentPurpose } from '#contracts/consent-documents.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import type { KycStore } from '#lambdas/domain/kyc/ports.ts';
import { publishOutboxEntry } from '#lambdas/domain/kyc/publish-outbox.ts';
import { minimiseIp, minimiseUserAgent } from '#lambdas/domain/minimise.ts';
import type {
  Clock,
  ConsentLedger,
  ConsentRecord,
  EventPublisher,
  KycStateReader,
  RateLimiter,
} from '#lambdas/domain/ports.ts';
import { withinSignedInLimit } from '#lambdas/domain/signed-in-limits.ts';
import { ConsentChainMovedError, ConsentLedgerContentionError, ConsentNotActiveError } from './errors.ts';
import { currentConsent } from './list-my-consents.ts';
import type { RequestOrigin } from './record-consent.ts';

// Withdrawing consent (GDPR Art. 7(3), ADR 0075): a `withdrawn` record appended to the subject's
// hash chain, then the processing that rested on the consent stops. The ledger record is the
// withdrawal; what happens at Persona follows it and never undoes it.

/** What the withdrawal asks of Persona (the Persona client's calls of the same names). */
export interface InquiryStopper {
  getInquiry(inquiryId: string): Promise<{ status: string }>;
  /** Ends the inquiry's sessions and cancels its pending verifications (Persona's `/expire`). */
  expireInquiry(inquiryId: string): Promise<unknown>;
  /** Erases the inquiry's personal data at Persona (`/redact`). */
  redactInquiry(inquiryId: string): Promise<unknown>;
}

/**
 * What became of the verification: nothing to stop (no inquiry), the open inquiry `expired` at
 * Persona (the person had not submitted), a submitted but undecided inquiry `redacted`, or a
 * decided verification whose evidence is `kept` (AMLD Art. 40); `provider_failed` when Persona did
 * not answer (the withdrawal stands; the operator finishes it, docs/operating.md).
 */
export type VerificationOutcome = 'none' | 'expired' | 'redacted' | 'kept' | 'provider_failed';

/** Persona statuses in which the person can still work on the inquiry: expire it. */
const openStatuses = new Set(['created', 'pending']);
/** Persona statuses of an inquiry that needs nothing more from Persona. */
const stoppedStatuses = new Set(['expired', 'failed', 'declined', 'approved']);

/**
 * The KYC state, for a submitted verification whose inquiry the withdrawal redacted: back to
 * `not_started`, published like any status change (ADR 0075).
 */
export interface StoppedVerification {
  store: Pick<KycStore, 'getRecord' | 'stopAfterWithdrawal' | 'markPublished'>;
  events: EventPublisher;
  clock: Clock;
}

export interface WithdrawConsentDeps {
  ledger: ConsentLedger;
  limiter: RateLimiter;
  kyc: KycStateReader;
  inquiries: InquiryStopper;
  /** Absent: the state is left as it is (the unit tests of the ledger part). */
  stopped?: StoppedVerification;
  /** Reports a failed call to Persona (logged and counted by the handler). */
  onProviderError?: (error: unknown, inquiryId: string) => void;
}

/** Reads of the chain before `ConsentLedgerContentionError` (each a race lost to another write). */
const maxAttempts = 5;

/**
 * POST /api/me/consent-withdrawals. Refused with `ConsentNotActiveError` (409), nothing appended,
 * when the newest record of the purpose is not a standing grant (never given, or withdrawn
 * already). The append is made as the next sequence of the chain that was read, so two concurrent
 * withdrawals append one record: the other reads again and finds nothing to withdraw. Shares the
 * `consent` per-user limit (a ledger record each, never deletable; ADR 0075).
 */
export function withdrawConsent(deps: WithdrawConsentDeps) {
  return async (input: {
    caller: Caller;
    purpose: ConsentPurpose;
    origin: RequestOrigin;
  }): Promise<{ record: ConsentRecord; verification: VerificationOutcome }> => {
    const { caller, purpose, origin } = input;
    const record = await appendWithdrawal(deps, caller, purpose, origin);
    const verification =
      purpose === 'identity_verification' ? await stopVerification(deps, caller.userId) : 'none';
    return { record, verification };
  };
}

async function appendWithdrawal(
  deps: WithdrawConsentDeps,
  caller: Caller,
  purpose: ConsentPurpose,
  origin: RequestOrigin,
): Promise<ConsentRecord> {
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const records = (await deps.ledger.listBySubject(caller.userId)).filter(
      (record) => record.issuer === caller.issuer,
    );
    const granted = currentConsent(records, purpose);
    if (granted === undefined) throw new ConsentNotActiveError(purpose);
    const head = records.reduce((max, record) => Math.max(max, record.sequence), 0);
    try {
      return await withinSignedInLimit(deps.limiter, 'consent', caller.userId, () =>
        deps.ledger.append(
          {
            subjectId: caller.userId,
            issuer: caller.issuer,
            purpose,
            action: 'withdrawn',
            // The statements of the grant withdrawn, each no longer given; the same document.
            statements: Object.fromEntries(Object.keys(granted.statements).map((id) => [id, false])),
            documentVersion: granted.documentVersion,
            documentSha256: granted.documentSha256,
            locale: granted.locale,
            method: 'account_page',
            requestId: origin.requestId,
            userAgent: minimiseUserAgent(origin.userAgent),
            ipAddress: minimiseIp(origin.ipAddress),
          },
          { sequence: head + 1 },
        ),
      );
    } catch (error) {
      if (!(error instanceof ConsentChainMovedError)) throw error;
    }
  }
  throw new ConsentLedgerContentionError(caller.userId, maxAttempts);
}

/**
 * Stops the verification the consent allowed, as far as the law lets: an open inquiry is expired
 * (the person can no longer submit to it; giving consent again starts a new one), a submitted one
 * not yet decided is redacted (no decision was made, so there is no due-diligence evidence to
 * keep), and a decided one keeps its evidence (AMLD Art. 40; GDPR Art. 17(3)(b)).
 */
async function stopVerification(deps: WithdrawConsentDeps, userId: string): Promise<VerificationOutcome> {
  const state = await deps.kyc.getState(userId);
  if (state?.status === 'approved' || state?.status === 'rejected') return 'kept';
  const inquiryId = state?.inquiryId;
  if (!inquiryId) return 'none';
  try {
    const inquiry = await deps.inquiries.getInquiry(inquiryId);
    if (openStatuses.has(inquiry.status)) {
      await deps.inquiries.expireInquiry(inquiryId);
      return 'expired';
    }
    if (stoppedStatuses.has(inquiry.status)) return inquiry.status === 'expired' ? 'expired' : 'kept';
    await deps.inquiries.redactInquiry(inquiryId);
  } catch (error) {
    deps.onProviderError?.(error, inquiryId);
    return 'provider_failed';
  }
  if (deps.stopped) await leaveReviewQueue(deps.stopped, userId, inquiryId);
  return 'redacted';
}

/**
 * The redacted inquiry can never be decided: the state goes back to `not_started`, so the review
 * queue drops it, a reviewer cannot decide on it, and a new consent starts a new inquiry. A state
 * decided or moved to another inquiry meanwhile is left as it is.
 */
async function leaveReviewQueue(deps: StoppedVerification, userId: string, inquiryId: string): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const state = await deps.store.getRecord(userId);
    if (!state || state.erased || state.status !== 'pending' || state.inquiryId !== inquiryId) return;
    const saved = await deps.store.stopAfterWithdrawal({
      userId,
      expectedVersion: state.version,
      inquiryId,
      at: deps.clock.now().toISOString(),
    });
    if (saved.outcome === 'saved') {
      // The relay publishes it later if this fails (the transactional outbox).
      await publishOutboxEntry(deps, saved.outbox);
      return;
    }
  }
}
