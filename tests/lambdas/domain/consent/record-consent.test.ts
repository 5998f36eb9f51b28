import { describe, expect, it } from 'vitest';
import {
  canonicalText,
  consentDocuments,
  consentPurposes,
  documentSha256,
  localizedConsentDocuments,
} from '#contracts/consent-documents.ts';
import { problemTypes } from '#contracts/problem.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import { ConsentLedgerContentionError } from '#lambdas/domain/consent/errors.ts';
import { verifyChain } from '#lambdas/domain/consent/hash-chain.ts';
import { currentConsent, listMyConsents } from '#lambdas/domain/consent/list-my-consents.ts';
import {
  type ConsentDecision,
  recordConsent,
  recordRegistrationAgreements,
} from '#lambdas/domain/consent/record-consent.ts';
import { EmailNotVerifiedError } from '#lambdas/domain/errors.ts';
import type { ConsentLedger } from '#lambdas/domain/ports.ts';
import { signedInWriteLimits } from '#lambdas/domain/signed-in-limits.ts';
import { problemFor } from '#lambdas/http/problems.ts';
import { FakeLimiter } from '#tests/lambdas/domain/account/fakes.ts';
import { InMemoryConsentLedger } from '#tests/lambdas/domain/fakes.ts';

const unlimited = () => new FakeLimiter(() => Date.now());

const alice: Caller = {
  userId: 'auth0|alice',
  issuer: 'https://tenant.example/',
  role: 'user',
  emailVerified: true,
  claims: {},
};
const decision = (overrides: Partial<ConsentDecision> = {}): ConsentDecision => ({
  identity_verification_consent: true,
  biometric_data_consent: true,
  privacy_policy_consent: true,
  consent_type: 'identity_verification',
  ...overrides,
});
const origin = {
  requestId: 'req-42',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  ipAddress: '203.0.113.77',
};

/** The problem the API answers with when the use case refuses (lambdas/http/problems.ts). */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return { error, ...problemFor(error, { requestId: 'req-42' }) };
  }
  throw new Error('expected the use case to refuse');
}

describe('recordConsent', () => {
  it("records at most the day's consents per person, then answers 429 with Retry-After and appends nothing (ADR 0072)", async () => {
    const ledger = new InMemoryConsentLedger();
    let now = Date.parse('2026-11-21T07:00:00.000Z');
    const limiter = new FakeLimiter(() => now);
    const record = recordConsent({ ledger, limiter });
    const { limit } = signedInWriteLimits.consent;
    for (let i = 0; i < limit; i++) await record({ caller: alice, decision: decision(), origin });
    const { problem, headers } = await refusal(record({ caller: alice, decision: decision(), origin }));
    expect(problem).toMatchObject({ status: 429, type: problemTypes.rateLimited });
    expect(Number(headers?.['retry-after'])).toBe(24 * 3600);
    expect(await ledger.listBySubject(alice.userId)).toHaveLength(limit);
    // Another person has their own budget; the next day the person has theirs back.
    await record({ caller: { ...alice, userId: 'auth0|bob' }, decision: decision(), origin });
    now += 24 * 3600 * 1000;
    await record({ caller: alice, decision: decision(), origin });
    expect(await ledger.listBySubject(alice.userId)).toHaveLength(limit + 1);
  });

  it('spends nothing of the budget on a refused consent or a failed append', async () => {
    const limiter = unlimited();
    const failing: ConsentLedger = {
      append: async () => {
        throw new ConsentLedgerContentionError('auth0|alice', 8);
      },
      listBySubject: async () => [],
      listByPurpose: async () => [],
    };
    for (let i = 0; i < signedInWriteLimits.consent.limit + 2; i++) {
      await refusal(
        recordConsent({ ledger: failing, limiter })({ caller: alice, decision: decision(), origin }),
      );
      await refusal(
        recordConsent({ ledger: new InMemoryConsentLedger(), limiter })({
          caller: alice,
          decision: decision({ biometric_data_consent: false }),
          origin,
        }),
      );
    }
    const ledger = new InMemoryConsentLedger();
    await recordConsent({ ledger, limiter })({ caller: alice, decision: decision(), origin });
    expect(await ledger.listBySubject(alice.userId)).toHaveLength(1);
  });

  it('records who, what, when and how, minimised, on the caller own chain', async () => {
    const ledger = new InMemoryConsentLedger();
    const record = await recordConsent({ ledger, limiter: unlimited() })({
      caller: alice,
      decision: decision(),
      origin,
    });
    const document = consentDocuments.identity_verification;
    expect(record).toEqual({
      subjectId: 'auth0|alice',
      issuer: 'https://tenant.example/',
      purpose: 'identity_verification',
      action: 'granted',
      statements: {
        identity_verification_consent: true,
        biometric_data_consent: true,
        privacy_policy_consent: true,
      },
      documentVersion: document.version,
      documentSha256: await documentSha256(document),
      locale: 'en',
      method: 'consent_dialog',
      requestId: 'req-42',
      userAgent: 'Firefox 121 (Linux)',
      ipAddress: '203.0.113.0',
      consentId: expect.any(String),
      sequence: 1,
      recordedAt: '2026-11-21T07:00:00.000Z',
      previousHash: null,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('records the interface language the person used', async () => {
    const ledger = new InMemoryConsentLedger();
    const record = await recordConsent({ ledger, limiter: unlimited() })({
      caller: alice,
      decision: decision({ locale: 'de' }),
      origin,
    });
    expect(record.locale).toBe('de');
  });

  it('accepts a body user_id that is the caller', async () => {
    const ledger = new InMemoryConsentLedger();
    await recordConsent({ ledger, limiter: unlimited() })({
      caller: alice,
      decision: decision({ user_id: 'auth0|alice' }),
      origin,
    });
    expect(ledger.records).toHaveLength(1);
  });

  it('answers 403 to a body user_id of another user and appends nothing', async () => {
    const ledger = new InMemoryConsentLedger();
    const { problem } = await refusal(
      recordConsent({ ledger, limiter: unlimited() })({
        caller: alice,
        decision: decision({ user_id: 'auth0|mallory' }),
        origin,
      }),
    );
    expect(problem).toMatchObject({ status: 403, type: problemTypes.forbidden });
    expect(ledger.records).toEqual([]);
  });

  it('answers 403 email-not-verified to a caller whose email is not verified, and appends nothing', async () => {
    const ledger = new InMemoryConsentLedger();
    const { error, problem } = await refusal(
      recordConsent({ ledger, limiter: unlimited() })({
        caller: { ...alice, emailVerified: false },
        decision: decision(),
        origin,
      }),
    );
    expect(error).toBeInstanceOf(EmailNotVerifiedError);
    expect(problem).toEqual({
      type: 'https://platform.example/problems/email-not-verified',
      title: 'Email Not Verified',
      status: 403,
      detail: 'Verify your email address first, then try again.',
    });
    expect(ledger.records).toEqual([]);
  });

  it('answers 400 naming each refused statement and appends nothing', async () => {
    const ledger = new InMemoryConsentLedger();
    const attempt = recordConsent({ ledger, limiter: unlimited() })({
      caller: alice,
      decision: decision({ biometric_data_consent: false, privacy_policy_consent: false }),
      origin,
    });
    const { problem } = await refusal(attempt);
    expect(problem).toMatchObject({
      status: 400,
      type: problemTypes.validation,
      errors: [
        { field: 'biometric_data_consent', message: 'You must consent to the processing of biometric data' },
        {
          field: 'privacy_policy_consent',
          message: 'You must confirm that you have read the privacy policy',
        },
      ],
    });
    expect(ledger.records).toEqual([]);
  });

  it('answers 409 when the person saw a version of the text that is not the current one, and appends nothing', async () => {
    const ledger = new InMemoryConsentLedger();
    const { problem } = await refusal(
      recordConsent({ ledger, limiter: unlimited() })({
        caller: alice,
        decision: decision({ document_version: '2020-01-01' }),
        origin,
      }),
    );
    expect(problem).toMatchObject({ status: 409, type: problemTypes.consentDocumentChanged });
    expect(ledger.records).toEqual([]);
  });

  it('accepts the current document version', async () => {
    const ledger = new InMemoryConsentLedger();
    const version = consentDocuments.identity_verification.version;
    const record = await recordConsent({ ledger, limiter: unlimited() })({
      caller: alice,
      decision: decision({ document_version: version }),
      origin,
    });
    expect(record.documentVersion).toBe(version);
  });

  it('answers 503 with Retry-After when the ledger stays contended', async () => {
    const ledger: ConsentLedger = {
      append: async () => {
        throw new ConsentLedgerContentionError('auth0|alice', 8);
      },
      listBySubject: async () => [],
      listByPurpose: async () => [],
    };
    const { problem, headers } = await refusal(
      recordConsent({ ledger, limiter: unlimited() })({ caller: alice, decision: decision(), origin }),
    );
    expect(problem).toMatchObject({ status: 503, type: problemTypes.consentLedgerBusy });
    expect(headers).toEqual({ 'retry-after': '1' });
  });
});

describe('consent documents in German (issue 28)', () => {
  it('match the English ones in purpose, version and statements, in German, with their own hash', async () => {
    expect(localizedConsentDocuments.en).toBe(consentDocuments);
    for (const purpose of consentPurposes) {
      const en = localizedConsentDocuments.en[purpose];
      const de = localizedConsentDocuments.de[purpose];
      expect(de).toMatchObject({ purpose, version: en.version, locale: 'de' });
      expect(de.statements.map((s) => s.id)).toEqual(en.statements.map((s) => s.id));
      expect(de.title).not.toBe(en.title);
      for (const [i, statement] of de.statements.entries())
        expect(statement.text).not.toBe(en.statements[i]?.text);
      expect(canonicalText(de)).toContain(`(${en.version}, de)`);
      expect(await documentSha256(de)).not.toBe(await documentSha256(en));
    }
    expect(localizedConsentDocuments.de.identity_verification.statements[0]?.text).toMatch(
      /^Ich stimme zu, dass /,
    );
  });
});

describe('recordConsent in a language', () => {
  it("records a German consent with the German document's hash and 'de', and carries the choice to the profile", async () => {
    const ledger = new InMemoryConsentLedger();
    const record = recordConsent({ ledger, limiter: unlimited() });
    const stored = await record({ caller: alice, decision: decision({ locale: 'de' }), origin });
    expect(stored.locale).toBe('de');
    expect(stored.documentVersion).toBe(consentDocuments.identity_verification.version);
    expect(stored.documentSha256).toBe(
      await documentSha256(localizedConsentDocuments.de.identity_verification),
    );
    expect(ledger.appendOptions).toEqual([{ languageChoice: 'de' }]);
  });

  it('records an English consent as before, and one naming no language as English without recording a choice', async () => {
    const ledger = new InMemoryConsentLedger();
    const record = recordConsent({ ledger, limiter: unlimited() });
    const english = await record({ caller: alice, decision: decision({ locale: 'en' }), origin });
    const unnamed = await record({ caller: alice, decision: decision(), origin });
    const sha = await documentSha256(consentDocuments.identity_verification);
    expect([english.locale, english.documentSha256]).toEqual(['en', sha]);
    expect([unnamed.locale, unnamed.documentSha256]).toEqual(['en', sha]);
    expect(ledger.appendOptions).toEqual([{ languageChoice: 'en' }, {}]);
  });
});

describe('recordRegistrationAgreements', () => {
  it("records the agreements of a German registration with the German documents' hashes and 'de'", async () => {
    const ledger = new InMemoryConsentLedger();
    const records = await recordRegistrationAgreements(
      { ledger },
      { subjectId: 'auth0|neu', issuer: 'https://tenant.example/', locale: 'de', ...origin },
    );
    expect(records.map((r) => r.locale)).toEqual(['de', 'de', 'de']);
    expect(records.map((r) => r.documentSha256)).toEqual(
      await Promise.all(
        (['terms_of_service', 'privacy_policy', 'non_harmful_use'] as const).map((purpose) =>
          documentSha256(localizedConsentDocuments.de[purpose]),
        ),
      ),
    );
    expect(verifyChain(records).ok).toBe(true);
  });

  it('records the three registration agreements in order, chained, from the current documents', async () => {
    const ledger = new InMemoryConsentLedger();
    const records = await recordRegistrationAgreements(
      { ledger },
      {
        subjectId: 'auth0|new',
        issuer: 'https://tenant.example/',
        locale: 'en',
        ...origin,
      },
    );
    expect(records.map((r) => [r.purpose, r.sequence, r.method, r.action])).toEqual([
      ['terms_of_service', 1, 'registration_wizard', 'granted'],
      ['privacy_policy', 2, 'registration_wizard', 'granted'],
      ['non_harmful_use', 3, 'registration_wizard', 'granted'],
    ]);
    expect(records[0]?.statements).toEqual({ termsAgreed: true });
    expect(records[2]?.documentSha256).toBe(await documentSha256(consentDocuments.non_harmful_use));
    expect(records.every((r) => r.ipAddress === '203.0.113.0' && r.userAgent === 'Firefox 121 (Linux)')).toBe(
      true,
    );
    expect(verifyChain(records).ok).toBe(true);
  });
});

describe('listMyConsents and currentConsent', () => {
  it("shows only the caller's records, without IP address or user agent", async () => {
    const ledger = new InMemoryConsentLedger();
    const record = recordConsent({ ledger, limiter: unlimited() });
    await record({ caller: alice, decision: decision(), origin });
    await record({ caller: { ...alice, userId: 'auth0|bob' }, decision: decision(), origin });
    const mine = await listMyConsents({ ledger })(alice);
    expect(mine).toHaveLength(1);
    expect(mine[0]).not.toHaveProperty('ipAddress');
    expect(mine[0]).not.toHaveProperty('userAgent');
    expect(mine[0]).not.toHaveProperty('requestId');
  });

  it('finds the standing consent for a purpose, and none after a withdrawal', async () => {
    const ledger = new InMemoryConsentLedger();
    const granted = await recordConsent({ ledger, limiter: unlimited() })({
      caller: alice,
      decision: decision(),
      origin,
    });
    expect(currentConsent(ledger.records, 'identity_verification')).toEqual(granted);
    expect(currentConsent(ledger.records, 'identity_verification', '1999-01-01')).toBeUndefined();
    await ledger.append({ ...granted, action: 'withdrawn' });
    expect(currentConsent(ledger.records, 'identity_verification')).toBeUndefined();
  });
});
