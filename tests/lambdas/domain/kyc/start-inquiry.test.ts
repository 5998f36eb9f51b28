import { describe, expect, it } from 'vitest';
import { EmailNotVerifiedError, RateLimitedError } from '#lambdas/domain/errors.ts';
import {
  AlreadyApprovedError,
  ConsentRequiredError,
  VerificationClosedError,
} from '#lambdas/domain/kyc/errors.ts';
import type { Inquiry, InquiryProvider } from '#lambdas/domain/kyc/ports.ts';
import { inquiryIdempotencyKey, startInquiry } from '#lambdas/domain/kyc/start-inquiry.ts';
import type { ConsentRecord } from '#lambdas/domain/ports.ts';
import { signedInWriteLimits } from '#lambdas/domain/signed-in-limits.ts';
import { localKycTables } from '#tests/helpers/kyc-table.ts';
import { FakeLimiter } from '#tests/lambdas/domain/account/fakes.ts';
import { sampleRecord } from '#tests/lambdas/domain/fakes.ts';

const userId = 'auth0|alice';
const caller = { userId, emailVerified: true };
const clock = { now: () => new Date('2026-11-21T07:00:00.000Z') };

const consent = (overrides: Partial<ConsentRecord> = {}) => sampleRecord({ subjectId: userId, ...overrides });

/** Persona's inquiry API in memory, honouring Idempotency-Key like Persona does. */
class FakePersona implements InquiryProvider {
  inquiries = new Map<string, Inquiry>();
  byKey = new Map<string, string>();
  creates = 0;
  resumes = 0;
  gets = 0;
  /** Every call made to Persona. */
  calls() {
    return this.creates + this.resumes + this.gets;
  }
  async createInquiry(input: { referenceId: string; templateId: string; idempotencyKey: string }) {
    const replay = this.byKey.get(input.idempotencyKey);
    if (replay) return { ...(this.inquiries.get(replay) as Inquiry) };
    this.creates += 1;
    const inquiry: Inquiry = {
      inquiryId: `inq_${this.creates}`,
      status: 'created',
      referenceId: input.referenceId,
      sessionToken: `token-${this.creates}-0`,
    };
    this.inquiries.set(inquiry.inquiryId, inquiry);
    this.byKey.set(input.idempotencyKey, inquiry.inquiryId);
    return { ...inquiry };
  }
  async getInquiry(id: string) {
    this.gets += 1;
    const inquiry = this.inquiries.get(id);
    if (!inquiry) throw new Error('404');
    return { ...inquiry, sessionToken: null };
  }
  async resumeInquiry(id: string) {
    this.resumes += 1;
    return `token-${id}-resumed-${this.resumes}`;
  }
}

const kycTables = localKycTables();

async function setup(
  records: ConsentRecord[] = [consent()],
  limiter = new FakeLimiter(() => clock.now().getTime()),
) {
  const store = await kycTables.newStore();
  const persona = new FakePersona();
  const ledgerReads: string[] = [];
  const published: unknown[] = [];
  const start = startInquiry({
    ledger: {
      listBySubject: async (subject) => {
        ledgerReads.push(subject);
        return records.filter((r) => r.subjectId === subject);
      },
    },
    store,
    provider: persona,
    events: { publish: async (entries) => void published.push(...entries) },
    clock,
    templateId: 'itmpl_test',
    limiter,
  });
  return { store, persona, start, ledgerReads, published };
}

describe('startInquiry', () => {
  it('answers at most the per-hour budget of calls per person, then 429 before Persona is asked (ADR 0072)', async () => {
    const { persona, start } = await setup();
    const { limit } = signedInWriteLimits['kyc-inquiry'];
    for (let i = 0; i < limit; i++) await start(caller);
    const callsBefore = persona.calls();
    const refused = await start(caller).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(3600);
    expect(persona.calls()).toBe(callsBefore);
  });

  it('refuses a caller whose email is not verified before reading or creating anything', async () => {
    const { store, persona, start, ledgerReads } = await setup();
    await store.seed({ userId, status: 'not_started', inquiryId: null });
    const unverified = { userId, emailVerified: false };
    await expect(start(unverified)).rejects.toBeInstanceOf(EmailNotVerifiedError);
    expect(persona.creates).toBe(0);
    expect(persona.resumes).toBe(0);
    expect(persona.inquiries.size).toBe(0);
    expect(store.states.get(userId)?.inquiryId ?? null).toBeNull();
    expect(ledgerReads).toEqual([]);
    // Once verified (a refreshed token carries the claim), the same caller gets an inquiry.
    expect((await start(caller)).inquiryId).toBe('inq_1');
  });

  it('refuses a caller without identity-verification consent, creating nothing', async () => {
    const { store, persona, start } = await setup([]);
    await expect(start(caller)).rejects.toBeInstanceOf(ConsentRequiredError);
    expect(persona.creates).toBe(0);
    expect(store.states.size).toBe(0);
  });

  it.each([
    ['withdrew it later', [consent(), consent({ sequence: 2, action: 'withdrawn' })]],
    [
      'declined biometrics',
      [
        consent({
          statements: {
            identity_verification_consent: true,
            biometric_data_consent: false,
            privacy_policy_consent: true,
          },
        }),
      ],
    ],
    ['only agreed to other purposes', [consent({ purpose: 'terms_of_service' })]],
    ['consented for another subject', [consent({ subjectId: 'auth0|bob' })]],
  ])('refuses a caller who %s', async (_name, records) => {
    const { start } = await setup(records);
    await expect(start(caller)).rejects.toBeInstanceOf(ConsentRequiredError);
  });

  it('creates an inquiry whose reference id is the caller, records it, and keeps the status not_started', async () => {
    const { store, persona, start } = await setup();
    const result = await start(caller);
    expect(result).toEqual({ inquiryId: 'inq_1', sessionToken: 'token-1-0' });
    expect(persona.inquiries.get('inq_1')?.referenceId).toBe(userId);
    expect(store.states.get(userId)).toMatchObject({
      status: 'not_started',
      inquiryId: 'inq_1',
      referenceId: userId,
    });
    expect(store.inquiries.get('inq_1')).toEqual({ userId, referenceId: userId });
  });

  it('resumes the open inquiry with a new session token instead of creating another', async () => {
    const { persona, start } = await setup();
    await start(caller);
    const second = await start(caller);
    expect(second).toEqual({ inquiryId: 'inq_1', sessionToken: 'token-inq_1-resumed-1' });
    expect(persona.creates).toBe(1);
  });

  it('creates one inquiry when the same request runs twice at once', async () => {
    const { store, persona, start } = await setup();
    const [a, b] = await Promise.all([start(caller), start(caller)]);
    expect(a.inquiryId).toBe(b.inquiryId);
    expect(persona.creates).toBe(1);
    expect(store.states.get(userId)?.inquiryId).toBe(a.inquiryId);
  });

  it('answers without a session token while a submitted inquiry awaits its decision', async () => {
    const { persona, start } = await setup();
    await start(caller);
    (persona.inquiries.get('inq_1') as Inquiry).status = 'needs_review';
    expect(await start(caller)).toEqual({ inquiryId: 'inq_1' });
    expect(persona.creates).toBe(1);
  });

  it('creates a new inquiry when the submitted one was redacted (consent withdrawn, then given again)', async () => {
    const { store, persona, start } = await setup();
    await start(caller);
    const first = persona.inquiries.get('inq_1') as Inquiry;
    first.status = 'needs_review';
    first.redactedAt = '2026-11-27T10:00:00.000Z';
    const result = await start(caller);
    expect(result).toMatchObject({ inquiryId: 'inq_2', sessionToken: expect.any(String) });
    expect(store.states.get(userId)).toMatchObject({ inquiryId: 'inq_2', status: 'not_started' });
  });

  it('creates a new inquiry after the previous one failed or expired', async () => {
    const { store, persona, start } = await setup();
    await start(caller);
    (persona.inquiries.get('inq_1') as Inquiry).status = 'expired';
    const result = await start(caller);
    expect(result.inquiryId).toBe('inq_2');
    expect(store.states.get(userId)?.inquiryId).toBe('inq_2');
  });

  it('refuses a caller who is already approved', async () => {
    const { store, persona, start } = await setup();
    await store.seed({ userId, status: 'approved', inquiryId: 'inq_done' });
    await expect(start(caller)).rejects.toBeInstanceOf(AlreadyApprovedError);
    expect(persona.creates).toBe(0);
  });

  it('refuses a rejected caller without an allowed new attempt, whoever rejected them', async () => {
    for (const decidedBy of ['admin', 'persona'] as const) {
      const { store, persona, start } = await setup();
      await store.seed({ userId, status: 'rejected', decidedBy, inquiryId: 'inq_done' });
      await expect(start(caller)).rejects.toBeInstanceOf(VerificationClosedError);
      expect(persona.creates).toBe(0);
    }
  });

  it('starts the allowed new attempt: a new inquiry, the next attempt, not_started, published', async () => {
    const { store, persona, start, published } = await setup();
    await store.seed({
      userId,
      status: 'rejected',
      decidedBy: 'admin',
      inquiryId: 'inq_old',
      attempt: 1,
      reasonCode: 'document_unreadable',
      newAttemptAllowed: true,
      lastEventAt: '2026-11-21T06:00:00.000000Z',
    });
    const result = await start(caller);
    expect(result).toEqual({ inquiryId: 'inq_1', sessionToken: 'token-1-0' });
    expect(persona.creates).toBe(1);
    expect(store.states.get(userId)).toMatchObject({
      status: 'not_started',
      inquiryId: 'inq_1',
      attempt: 2,
      newAttemptAllowed: false,
      reasonCode: null,
      lastEventAt: null,
      decidedBy: 'user',
    });
    expect(await store.listInquiries(userId)).toEqual([
      expect.objectContaining({ inquiryId: 'inq_1', attempt: 2 }),
    ]);
    expect(published).toEqual([
      expect.objectContaining({
        detailType: 'KycStatusChanged',
        detail: expect.objectContaining({
          status: 'not_started',
          previousStatus: 'rejected',
          decidedBy: 'user',
        }),
      }),
    ]);
    // The next call resumes the new inquiry instead of starting yet another attempt.
    expect(await start(caller)).toMatchObject({ inquiryId: 'inq_1' });
    expect(persona.creates).toBe(1);
  });

  it('records every inquiry against the person, the replaced ones too', async () => {
    const { store, persona, start } = await setup();
    await start(caller);
    (persona.inquiries.get('inq_1') as Inquiry).status = 'expired';
    await start(caller);
    expect((await store.listInquiries(userId)).map((entry) => entry.inquiryId)).toEqual(['inq_1', 'inq_2']);
    expect(store.states.get(userId)?.attempt).toBe(1);
  });

  it('derives the idempotency key from the user and the inquiry it replaces', () => {
    expect(inquiryIdempotencyKey(userId, null)).toBe(inquiryIdempotencyKey(userId, null));
    expect(inquiryIdempotencyKey(userId, null)).not.toBe(inquiryIdempotencyKey('auth0|bob', null));
    expect(inquiryIdempotencyKey(userId, null)).not.toBe(inquiryIdempotencyKey(userId, 'inq_1'));
    expect(inquiryIdempotencyKey(userId, null)).not.toContain(userId);
  });
});
