import { describe, expect, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import { auditConsents } from '#lambdas/domain/consent/audit.ts';
import { ConsentNotActiveError } from '#lambdas/domain/consent/errors.ts';
import { currentConsent } from '#lambdas/domain/consent/list-my-consents.ts';
import { recordConsent } from '#lambdas/domain/consent/record-consent.ts';
import { type InquiryStopper, withdrawConsent } from '#lambdas/domain/consent/withdraw-consent.ts';
import { problemFor } from '#lambdas/http/problems.ts';
import { localKycTables } from '#tests/helpers/kyc-table.ts';
import { FakeLimiter } from '#tests/lambdas/domain/account/fakes.ts';
import { RecordingPublisher } from '#tests/lambdas/domain/fakes.ts';

// The withdrawal on the real ledger and KYC store (DynamoDB Local), Persona as a recording fake.

const tables = localKycTables();
const alice: Caller = {
  userId: 'auth0|alice',
  issuer: 'https://tenant.example/',
  role: 'user',
  emailVerified: true,
  claims: {},
};
const origin = { requestId: 'req-7', userAgent: 'Mozilla/5.0 Firefox/121.0', ipAddress: '203.0.113.77' };
const consent = {
  identity_verification_consent: true,
  biometric_data_consent: true,
  privacy_policy_consent: true,
  consent_type: 'identity_verification',
} as const;

class RecordingPersona implements InquiryStopper {
  readonly calls: string[] = [];
  constructor(private status: string) {}
  async getInquiry(inquiryId: string) {
    this.calls.push(`get ${inquiryId}`);
    return { status: this.status };
  }
  async expireInquiry(inquiryId: string) {
    this.calls.push(`expire ${inquiryId}`);
    this.status = 'expired';
  }
  async redactInquiry(inquiryId: string) {
    this.calls.push(`redact ${inquiryId}`);
  }
}

async function setup(personaStatus = 'pending') {
  const ledger = await tables.newLedger();
  const store = await tables.newStore();
  const limiter = new FakeLimiter(() => Date.now());
  const persona = new RecordingPersona(personaStatus);
  const events = new RecordingPublisher();
  const withdraw = withdrawConsent({
    ledger,
    limiter,
    kyc: store,
    inquiries: persona,
    stopped: { store, events, clock: { now: () => new Date('2026-11-27T10:00:00.000Z') } },
  });
  const give = () => recordConsent({ ledger, limiter })({ caller: alice, decision: consent, origin });
  return { ledger, store, persona, withdraw, give, published: events.published };
}

const withdrawal = { caller: alice, purpose: 'identity_verification', origin } as const;

describe('withdrawConsent', () => {
  it("appends a withdrawal to the subject's chain, with the server's time and the method; the chain verifies", async () => {
    const { ledger, withdraw, give } = await setup();
    const granted = await give();
    const { record, verification } = await withdraw(withdrawal);
    expect(record).toMatchObject({
      subjectId: alice.userId,
      purpose: 'identity_verification',
      action: 'withdrawn',
      method: 'account_page',
      sequence: granted.sequence + 1,
      previousHash: granted.hash,
      documentVersion: granted.documentVersion,
      statements: {
        identity_verification_consent: false,
        biometric_data_consent: false,
        privacy_policy_consent: false,
      },
      ipAddress: '203.0.113.0',
    });
    expect(Date.parse(record.recordedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(verification).toBe('none');
    const records = await ledger.listBySubject(alice.userId);
    expect(currentConsent(records, 'identity_verification')).toBeUndefined();
    const report = await auditConsents(ledger, { user: alice.userId });
    expect(report.ok).toBe(true);
    expect(report.records.map((r) => r.action)).toEqual(['granted', 'withdrawn']);
  });

  it('refuses what was never given, and a second withdrawal, with 409 consent-not-active and appends nothing', async () => {
    const { ledger, withdraw, give } = await setup();
    await expect(withdraw(withdrawal)).rejects.toBeInstanceOf(ConsentNotActiveError);
    await give();
    await withdraw(withdrawal);
    const error = await withdraw(withdrawal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConsentNotActiveError);
    const { problem } = problemFor(error, { requestId: 'r' });
    expect(problem).toMatchObject({ type: problemTypes.consentNotActive, status: 409 });
    expect((await ledger.listBySubject(alice.userId)).length).toBe(2);
  });

  it('appends one withdrawal when two race: the other finds nothing to withdraw', async () => {
    const { ledger, withdraw, give } = await setup();
    await give();
    const results = await Promise.allSettled([withdraw(withdrawal), withdraw(withdrawal)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected');
    expect(rejected?.reason).toBeInstanceOf(ConsentNotActiveError);
    const records = await ledger.listBySubject(alice.userId);
    expect(records.map((r) => r.action)).toEqual(['granted', 'withdrawn']);
  });

  it('expires an open inquiry at Persona; the KYC state is left to its own rules', async () => {
    const { store, persona, withdraw, give } = await setup('pending');
    await give();
    await store.seed({ userId: alice.userId, inquiryId: 'inq_open' });
    const { verification } = await withdraw(withdrawal);
    expect(verification).toBe('expired');
    expect(persona.calls).toEqual(['get inq_open', 'expire inq_open']);
    expect((await store.getRecord(alice.userId))?.status).toBe('not_started');
  });

  it('redacts a submitted inquiry not yet decided, and takes the verification out of review: not started, by the person', async () => {
    const { store, persona, withdraw, give, published } = await setup('needs_review');
    await give();
    await store.seed({ userId: alice.userId, inquiryId: 'inq_review', status: 'pending' });
    expect((await withdraw(withdrawal)).verification).toBe('redacted');
    expect(persona.calls).toEqual(['get inq_review', 'redact inq_review']);
    // Nobody can decide a redacted inquiry: the review queue drops it, and a new consent starts anew.
    expect(store.states.get(alice.userId)).toMatchObject({
      status: 'not_started',
      decidedBy: 'user',
      inquiryId: 'inq_review',
      lastEventAt: '2026-11-27T10:00:00.000Z',
    });
    expect(store.history.at(-1)).toMatchObject({
      from: 'pending',
      to: 'not_started',
      by: 'user',
      reason: 'consent withdrawn',
      action: 'status_changed',
    });
    expect(published).toEqual([
      expect.objectContaining({
        detailType: 'KycStatusChanged',
        detail: expect.objectContaining({
          status: 'not_started',
          previousStatus: 'pending',
          decidedBy: 'user',
        }),
      }),
    ]);
    expect([...store.outbox.values()].map((entry) => entry.publishedAt)).toEqual([
      '2026-11-27T10:00:00.000Z',
    ]);
  });

  it('leaves a state Persona or a reviewer decided meanwhile as it is', async () => {
    const { store, withdraw, give, published } = await setup('needs_review');
    await give();
    // Decided on another inquiry than the one found (a race the store's condition settles).
    await store.seed({
      userId: alice.userId,
      inquiryId: 'inq_review',
      status: 'approved',
      reasonCode: 'checks_passed',
    });
    expect((await withdraw(withdrawal)).verification).toBe('kept');
    expect(store.states.get(alice.userId)?.status).toBe('approved');
    expect(published).toEqual([]);
  });

  it('keeps the evidence of a decided verification: nothing is asked of Persona', async () => {
    const { store, persona, withdraw, give } = await setup('approved');
    await give();
    await store.seed({
      userId: alice.userId,
      inquiryId: 'inq_done',
      status: 'approved',
      reasonCode: 'checks_passed',
    });
    expect((await withdraw(withdrawal)).verification).toBe('kept');
    expect(persona.calls).toEqual([]);
  });
});
