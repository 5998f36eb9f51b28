import type { DomainEvent } from '#contracts/events.ts';
import { recordHash } from '#lambdas/domain/consent/hash-chain.ts';
import type {
  AppendOptions,
  Clock,
  ConsentEntry,
  ConsentLedger,
  ConsentPurpose,
  ConsentRecord,
  EventPublisher,
} from '#lambdas/domain/ports.ts';

// The shared stand-ins for the ports of `lambdas/domain/ports.ts` that many use cases take: the
// consent ledger, its records, and the event publisher. One copy, so a change to a port changes
// one fake.

/** The ledger's contract in memory: per-subject chains, hashed the way the DynamoDB adapter hashes. */
export class InMemoryConsentLedger implements ConsentLedger {
  readonly records: ConsentRecord[] = [];
  /** The options of each append, in order (the language choice a consent carries, issue 28). */
  readonly appendOptions: AppendOptions[] = [];
  private ids = 0;

  constructor(private readonly clock: Clock = { now: () => new Date('2026-11-21T07:00:00Z') }) {}

  async append(entry: ConsentEntry, options: AppendOptions = {}): Promise<ConsentRecord> {
    this.appendOptions.push(options);
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

/** A record as the ledger returns it: `sampleEntry` with its ledger fields (the first of a chain). */
export const sampleRecord = (overrides: Partial<ConsentRecord> = {}): ConsentRecord => ({
  ...sampleEntry(),
  consentId: 'c-1',
  sequence: 1,
  recordedAt: '2026-11-20T00:00:00.000Z',
  previousHash: null,
  hash: 'b'.repeat(64),
  ...overrides,
});

/** EventBridge in memory: keeps what it is given; `failNext` refuses that many calls first. */
export class RecordingPublisher implements EventPublisher {
  readonly published: DomainEvent[] = [];
  failNext = 0;
  async publish(events: DomainEvent[]) {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('EventBridge refused 1 event(s): InternalFailure');
    }
    this.published.push(...events);
  }
}
