import type { AdminAuditLog } from '../admin-audit/trail.ts';
import type { Clock } from '../ports.ts';
import { type ErasurePlan, mergeDeleted, planErasure, retentionDates } from './erasure-plan.ts';
import type {
  ConsentProof,
  DeletionRequests,
  ErasableUserDirectory,
  ErasedAccounts,
  ErasureOutcome,
  InquiryRedactor,
  KycRecords,
  RetentionSchedule,
  SubmissionsByEmail,
} from './ports.ts';

// Carries out a data deletion request (GDPR Art. 17): finds every record of the address, deletes
// or redacts what has no retention ground, keeps the rest and writes the report into the request.

export class DeletionRequestNotFoundError extends Error {
  constructor(readonly requestId: string) {
    super(`No data deletion request ${requestId}`);
  }
}

/**
 * The address's owner never confirmed the request (ADR 0033): it may be someone else's request
 * in their name. `expired`: its confirmation link no longer works, so it never will be confirmed.
 */
export class DeletionRequestNotConfirmedError extends Error {
  constructor(
    readonly requestId: string,
    readonly expired: boolean,
    confirmBy: string | undefined,
  ) {
    super(
      expired
        ? `Data deletion request ${requestId} was never confirmed by the owner of its address${confirmBy ? ` and its confirmation link expired at ${confirmBy}` : ''}; nothing done. The person must ask again and confirm through the emailed link.`
        : `Data deletion request ${requestId} is not confirmed yet (its link works until ${confirmBy}); nothing done. Run this again once the person has confirmed it.`,
    );
    this.name = 'DeletionRequestNotConfirmedError';
  }
}

export interface EraseDeps {
  requests: DeletionRequests;
  submissions: SubmissionsByEmail;
  users: ErasableUserDirectory;
  kyc: KycRecords;
  consents: ConsentProof;
  persona: InquiryRedactor;
  retention: RetentionSchedule;
  accounts: ErasedAccounts;
  clock: Clock;
  /** The admin trail: each run that carries a request out is recorded (ADR 0078). */
  trail: Pick<AdminAuditLog, 'append'>;
  /** Who runs the erasure: the operator's AWS principal, or the local user on the local stack. */
  operatorId: string;
}

/** How long an erased account's marker outlives it: longer than any access token it was given. */
export const erasedAccountMarkerDays = 7;

export type EraseResult =
  | { kind: 'already-completed'; requestId: string; outcome: ErasureOutcome }
  | { kind: 'dry-run'; requestId: string; email: string; plan: ErasurePlan }
  | { kind: 'completed'; requestId: string; email: string; outcome: ErasureOutcome };

export function eraseRequestedData(deps: EraseDeps) {
  return async (requestId: string, options: { dryRun?: boolean } = {}): Promise<EraseResult> => {
    const request = await deps.requests.get(requestId);
    if (!request) throw new DeletionRequestNotFoundError(requestId);
    if (request.status === 'completed') {
      return {
        kind: 'already-completed',
        requestId,
        outcome: {
          deleted: request.deleted ?? [],
          kept: request.kept ?? [],
          completedAt: request.completedAt ?? '',
        },
      };
    }
    // Only a confirmed request counts: a dry run included, since its report lists the person's data.
    if (!request.confirmedAt) {
      const expired = request.confirmBy === undefined || request.confirmBy <= deps.clock.now().toISOString();
      throw new DeletionRequestNotConfirmedError(requestId, expired, request.confirmBy);
    }

    const user = await deps.users.findByEmail(request.email);
    const userIds = [...new Set([...(request.userIds ?? []), ...(user ? [user.userId] : [])])];
    const submissions = await deps.submissions.listByEmail(request.email);
    const kyc = [];
    const consents = [];
    for (const userId of userIds) {
      const state = await deps.kyc.getRecord(userId);
      // Every attempt's inquiry (a failed first one keeps its documents at Persona otherwise), and
      // the state's own in case it predates the per-person record.
      const recorded = (await deps.kyc.listInquiries(userId)).map((inquiry) => inquiry.inquiryId);
      const inquiryIds = [...new Set([...recorded, ...(state?.inquiryId ? [state.inquiryId] : [])])];
      if (state || inquiryIds.length > 0) kyc.push({ userId, status: state?.status ?? null, inquiryIds });
      consents.push({ userId, count: (await deps.consents.listBySubject(userId)).length });
    }
    // The relationship ends when the erasure starts; a rerun keeps the first run's date.
    const startedAt = request.startedAt ?? deps.clock.now().toISOString();
    const endedAt = new Date(startedAt);
    const plan = planErasure({ submissions, userIds, kyc, consents, endedAt });
    if (options.dryRun) return { kind: 'dry-run', requestId, email: request.email, plan };

    const planned = mergeDeleted(request.planned ?? [], plan.deleted);
    await deps.requests.markInProgress(requestId, { userIds, planned, startedAt });
    // Persona first and the account last: until the end, a rerun can still find everything.
    for (const inquiryId of plan.redactInquiries) await deps.persona.redactInquiry(inquiryId);
    for (const ref of plan.deleteSubmissions) await deps.submissions.delete({ pk: ref.pk, sk: ref.sk });
    for (const userId of plan.deleteUsers) await deps.users.delete(userId);
    const markerUntil = Math.floor(deps.clock.now().getTime() / 1000) + erasedAccountMarkerDays * 24 * 3600;
    for (const userId of userIds) await deps.accounts.markErased(userId, markerUntil);
    // After the account is gone (no new consent can be appended), what is kept gets its expiry.
    const until = retentionDates(endedAt);
    const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
    for (const userId of userIds) {
      await deps.retention.expireConsentRecords(userId, epoch(until.consentLedger));
      const inquiries = kyc.flatMap((state) => (state.userId === userId ? state.inquiryIds : []));
      await deps.retention.expireKycRecords(userId, inquiries, epoch(until.kycState));
    }

    const outcome: ErasureOutcome = {
      deleted: planned,
      kept: plan.kept,
      completedAt: deps.clock.now().toISOString(),
    };
    // Recorded before the request is marked done: if the append fails, a rerun (which redoes
    // nothing that is done) records it; a crash between the two records the run twice, never none.
    await deps.trail.append({
      actorType: 'operator',
      actorId: deps.operatorId,
      action: 'erasure_run',
      targetType: 'deletion_request',
      targetId: requestId,
      reasonCode: null,
      reason: `Data-deletion request confirmed by its address's owner at ${request.confirmedAt}`,
      // Counts, not contents: the trail outlives what the run deleted.
      details: {
        accounts: userIds.length,
        deleted: planned.length,
        kept: plan.kept.length,
        inquiriesRedacted: plan.redactInquiries.length,
        startedAt,
      },
      requestId: null,
    });
    await deps.requests.complete(requestId, outcome, epoch(until.deletionRequest));
    return { kind: 'completed', requestId, email: request.email, outcome };
  };
}
