import type { ConsentHistoryRecord } from '#contracts/consent.ts';
import type { ConsentLedger, ConsentPurpose, ConsentRecord } from '#lambdas/domain/ports.ts';

/** What a person sees of their own record: the proof, without the network and browser details. */
export function toHistoryRecord(record: ConsentRecord): ConsentHistoryRecord {
  return {
    consentId: record.consentId,
    purpose: record.purpose,
    action: record.action,
    statements: record.statements,
    documentVersion: record.documentVersion,
    documentSha256: record.documentSha256,
    locale: record.locale,
    method: record.method,
    recordedAt: record.recordedAt,
    sequence: record.sequence,
    hash: record.hash,
    previousHash: record.previousHash,
  };
}

/** GET /api/me/consents: the caller's own records, oldest first. */
export function listMyConsents(deps: { ledger: ConsentLedger }) {
  return async (caller: { userId: string; issuer: string }): Promise<ConsentHistoryRecord[]> => {
    const records = await deps.ledger.listBySubject(caller.userId);
    // The partition is the `sub`; the issuer check keeps another tenant's identical `sub` out.
    return records.filter((record) => record.issuer === caller.issuer).map(toHistoryRecord);
  };
}

/**
 * The standing decision for a purpose: the newest record of that purpose, if it grants consent to
 * the given document version (any version when omitted). For `GET /api/me` and the KYC start.
 */
export function currentConsent(
  records: readonly ConsentRecord[],
  purpose: ConsentPurpose,
  documentVersion?: string,
): ConsentRecord | undefined {
  const latest = latestRecord(records, purpose);
  if (latest?.action !== 'granted') return undefined;
  if (documentVersion !== undefined && latest.documentVersion !== documentVersion) return undefined;
  if (!Object.values(latest.statements).every(Boolean)) return undefined;
  return latest;
}

/** The newest record of a purpose (highest sequence of the chain), granted or withdrawn. */
export function latestRecord(
  records: readonly ConsentRecord[],
  purpose: ConsentPurpose,
): ConsentRecord | undefined {
  return records
    .filter((record) => record.purpose === purpose)
    .reduce<ConsentRecord | undefined>(
      (newest, record) => (newest === undefined || record.sequence > newest.sequence ? record : newest),
      undefined,
    );
}

/**
 * The person withdrew the purpose's consent and has not given it again: its newest record is a
 * withdrawal. False for someone who never consented (ADR 0075: what the status screen and the
 * account page say after a withdrawal).
 */
export function consentWithdrawn(records: readonly ConsentRecord[], purpose: ConsentPurpose): boolean {
  return latestRecord(records, purpose)?.action === 'withdrawn';
}
