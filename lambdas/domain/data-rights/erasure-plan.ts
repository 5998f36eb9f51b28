import {
  contractRetentionYears,
  deletionRequestRetentionYears,
  kycRetentionYears,
  retainedUntil,
  retentionTable,
} from '#contracts/retention.ts';
import type { DeletedEntry, KeptEntry, SubmissionRef } from './ports.ts';

// What an erasure deletes and what it keeps, decided from the records found, as a pure function
// (docs/decisions/0008-data-rights.md explains the retention grounds).

export const retentionReasons = {
  deletionRequest:
    'Proof that the erasure request was received and answered (GDPR Art. 5(2) accountability, Art. 12 and 17), ' +
    `kept for ${deletionRequestRetentionYears} years (the limitation period, § 195 BGB); it holds the address ` +
    'and this report, not the erased data.',
  consentLedger:
    'Consent proof (GDPR Art. 7(1)) and record of the agreed terms: the append-only ledger is kept for ' +
    `${contractRetentionYears} years after the relationship ends (commercial and contract records); it ` +
    'identifies the person only by an opaque subject id.',
  kycState:
    `KYC decision record kept for ${kycRetentionYears} years after the relationship ends (anti-money-laundering ` +
    'retention, GwG § 8(4)); the identity documents and biometrics of each of its inquiries at Persona are ' +
    'redacted (each listed among the deleted).',
} as const;

/** Submission kinds that are kept, with the reason; every other record of the address is deleted. */
const keptSubmissionKinds: Record<string, string> = {
  deletion_request: retentionReasons.deletionRequest,
};

/** `years` calendar years after `date` (29 February becomes 1 March). */
export function yearsAfter(date: Date, years: number): Date {
  return retainedUntil(date, { amount: years, unit: 'years' });
}

/**
 * When what erasure keeps expires, counted from the end of the relationship (the erasure's start),
 * by the retention table's periods (ADR 0077).
 */
export function retentionDates(endedAt: Date) {
  return {
    consentLedger: retainedUntil(endedAt, retentionTable.consentRecords.period),
    kycState: retainedUntil(endedAt, retentionTable.kycEvidence.period),
    deletionRequest: retainedUntil(endedAt, retentionTable.deletionRequests.period),
  };
}

export interface ErasureFindings {
  submissions: SubmissionRef[];
  /** The identity provider's users of the address (the current one, and any recorded by an earlier run). */
  userIds: string[];
  /**
   * Per user: the KYC state's status (null: no state item) and every inquiry recorded against the
   * person (each attempt's, ADR 0058), the state's current one included.
   */
  kyc: { userId: string; status: string | null; inquiryIds: string[] }[];
  consents: { userId: string; count: number }[];
  /** The end of the relationship: when the erasure started. */
  endedAt: Date;
}

export interface ErasurePlan {
  deleteSubmissions: SubmissionRef[];
  deleteUsers: string[];
  redactInquiries: string[];
  /** Everything the plan deletes or redacts, as the report lists it. */
  deleted: DeletedEntry[];
  kept: KeptEntry[];
}

export const submissionKey = (ref: { pk: string; sk: string }) => `${ref.pk}|${ref.sk}`;

export function planErasure(findings: ErasureFindings): ErasurePlan {
  const deleteSubmissions: SubmissionRef[] = [];
  const kept: KeptEntry[] = [];
  const until = retentionDates(findings.endedAt);
  for (const ref of findings.submissions) {
    const reason = keptSubmissionKinds[ref.kind];
    if (reason)
      kept.push({
        store: 'submissions',
        key: submissionKey(ref),
        kind: ref.kind,
        reason,
        retainUntil: until.deletionRequest.toISOString(),
      });
    // Registrations, waitlist, investor inquiries, contact messages and anything else that carries
    // the address (counters, unknown kinds) have no retention ground: they go.
    else deleteSubmissions.push(ref);
  }
  const deleteUsers = [...new Set(findings.userIds)];
  const redactInquiries = [...new Set(findings.kyc.flatMap((state) => state.inquiryIds))];
  for (const state of findings.kyc) {
    if (state.status === null) continue;
    kept.push({
      store: 'kycState',
      key: `USER#${state.userId}`,
      kind: 'kyc_decision',
      reason: retentionReasons.kycState,
      retainUntil: until.kycState.toISOString(),
    });
  }
  for (const consent of findings.consents) {
    if (consent.count === 0) continue;
    kept.push({
      store: 'consentLedger',
      key: consent.userId,
      kind: 'consent_record',
      count: consent.count,
      reason: retentionReasons.consentLedger,
      retainUntil: until.consentLedger.toISOString(),
    });
  }
  const deleted: DeletedEntry[] = [
    ...deleteSubmissions.map(
      (ref): DeletedEntry => ({
        store: 'submissions',
        key: submissionKey(ref),
        kind: ref.kind,
        action: 'deleted',
      }),
    ),
    ...redactInquiries.map(
      (id): DeletedEntry => ({ store: 'persona', key: id, kind: 'kyc_inquiry', action: 'redacted' }),
    ),
    ...deleteUsers.map(
      (id): DeletedEntry => ({ store: 'identityProvider', key: id, kind: 'user_account', action: 'deleted' }),
    ),
  ];
  return { deleteSubmissions, deleteUsers, redactInquiries, deleted, kept };
}

/** Entries of both lists, once each (a rerun reports what the interrupted run already removed). */
export function mergeDeleted(previous: DeletedEntry[], current: DeletedEntry[]): DeletedEntry[] {
  const seen = new Set<string>();
  const merged: DeletedEntry[] = [];
  for (const entry of [...previous, ...current]) {
    const id = `${entry.store}:${entry.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    merged.push(entry);
  }
  return merged;
}
