import {
  personaInquiryDashboardUrl,
  type VerificationEvidenceResponse,
} from '#contracts/verification-evidence.ts';
import { VerificationNotFoundError } from './errors.ts';
import type { KycRecord } from './ports.ts';

// Why Persona flagged a case (ADR 0082): the current inquiry's verifications and their failed
// checks, read from Persona (`GET /api/v1/inquiries/{id}?include=verifications`) when a reviewer
// opens a card's "Persona checks". One Persona call per opening; nothing is stored.

/** One verification of an inquiry as Persona returns it (the `included` objects). */
export interface InquiryVerification {
  id: string;
  /** JSON:API type, e.g. `verification/government-id`. */
  type: string;
  status: string;
  checks: { name: string; status: string; reasons: string[] }[];
}

export interface InquiryEvidence {
  inquiryId: string;
  status: string;
  redactedAt: string | null;
  verifications: InquiryVerification[];
}

export interface InquiryEvidenceReader {
  getInquiryEvidence(inquiryId: string): Promise<InquiryEvidence>;
}

export interface VerificationEvidenceDeps {
  store: { getRecord(userId: string): Promise<KycRecord | undefined> };
  persona: InquiryEvidenceReader;
}

export function getVerificationEvidence(deps: VerificationEvidenceDeps) {
  return async (userId: string): Promise<VerificationEvidenceResponse> => {
    const record = await deps.store.getRecord(userId);
    // No inquiry yet, or an erased person (ADR 0077): nothing of theirs is anyone's to review.
    if (!record || record.erased || !record.inquiryId) throw new VerificationNotFoundError();
    const evidence = await deps.persona.getInquiryEvidence(record.inquiryId);
    return {
      userId,
      inquiryId: record.inquiryId,
      inquiryStatus: evidence.status,
      redacted: evidence.redactedAt !== null,
      verifications: evidence.verifications.map((verification) => ({
        id: verification.id,
        type: verification.type.replace(/^verification\//, ''),
        status: verification.status,
        failedChecks: verification.checks
          .filter((check) => check.status === 'failed')
          .map((check) => ({ name: check.name, status: check.status, reasons: check.reasons })),
      })),
      dashboardUrl: personaInquiryDashboardUrl(record.inquiryId),
    };
  };
}
