import { recordHash } from '#lambdas/domain/consent/hash-chain.ts';
import type {
  Clock,
  ConsentEntry,
  ConsentLedger,
  ConsentPurpose,
  ConsentRecord,
} from '#lambdas/domain/ports.ts';

/** The ledger's contract in memory: per-subject chains, hashed the way the DynamoDB adapter hashes. */
export class InMemoryConsentLedger implements ConsentLedger {
  readonly records: ConsentRecord[] = [];
  private ids = 0;

  constructor(private readonly clock: Clock = { now: () => new Date('2026-11-21T07:00:00Z') }) {}

  async append(entry: ConsentEntry): Promise<ConsentRecord> {
    const chain = this.records.filter((record) => record.subjectId === entry.subjectId);
    const head = chain.at(-1);
    this.ids += 1;
    const unhashed = {
      ...entry,
      consentId: `consent-${this.ids}`,
      sequence: (head?.sequence ?? 0) + 1,
      recordedAt: this.clock.now().toISOString(),
      previousHash: head?.hash ?? null,
    };
    const record = { ...unhashed, hash: recordHash(unhashed) };
    this.records.push(record);
    return record;
  }

  async listBySubject(subjectId: string) {
    return this.records.filter((record) => record.subjectId === subjectId);
  }

  async listByPurpose(purpose: ConsentPurpose, fromIso: string, toIso: string) {
    return this.records.filter(
      (record) => record.purpose === purpose && record.recordedAt >= fromIso && record.recordedAt <= toIso,
    );
  }
}

export const sampleEntry = (overrides: Partial<ConsentEntry> = {}): ConsentEntry => ({
  subjectId: 'auth0|alice',
  issuer: 'https://tenant.example/',
  purpose: 'identity_verification',
  action: 'granted',
  statements: {
    identity_verification_consent: true,
    biometric_data_consent: true,
    privacy_policy_consent: true,
  },
  documentVersion: '2026-11-01',
  documentSha256: 'a'.repeat(64),
  locale: 'en',
  method: 'consent_dialog',
  requestId: 'req-1',
  userAgent: 'Firefox 121 (Windows)',
  ipAddress: '203.0.113.0',
  ...overrides,
});
