import { describe, expect, it } from 'vitest';
import { retentionTable } from '#contracts/retention.ts';
import { mergeDeleted, planErasure, retentionReasons } from '#lambdas/domain/data-rights/erasure-plan.ts';
import { policyFacts } from '#web/content/pages/legal/facts.ts';

const ref = (pk: string, kind: string) => ({ pk, sk: 'X', kind });

describe('the erasure plan', () => {
  const plan = planErasure({
    submissions: [
      ref('REGISTRATION#1', 'registration'),
      ref('WAITLIST#ada@example.org', 'waitlist'),
      ref('INVESTOR_INQUIRY#2', 'investor_inquiry'),
      ref('CONTACT#3', 'contact_message'),
      ref('DELETION#4', 'deletion_request'),
      ref('RATE#5', 'unknown'),
    ],
    userIds: ['auth0|ada', 'auth0|ada'],
    kyc: [{ userId: 'auth0|ada', status: 'approved', inquiryIds: ['inq_1'] }],
    consents: [{ userId: 'auth0|ada', count: 4 }],
    endedAt: new Date('2026-04-01T09:00:00.000Z'),
  });

  it('deletes registration, waitlist, investor, contact and unclassified records of the address', () => {
    expect(plan.deleteSubmissions.map((r) => r.kind)).toEqual([
      'registration',
      'waitlist',
      'investor_inquiry',
      'contact_message',
      'unknown',
    ]);
  });

  it('keeps the deletion request itself as proof that it was answered', () => {
    expect(plan.kept).toContainEqual({
      store: 'submissions',
      key: 'DELETION#4|X',
      kind: 'deletion_request',
      reason: retentionReasons.deletionRequest,
      retainUntil: `${2026 + retentionTable.deletionRequests.period.amount}-04-01T09:00:00.000Z`,
    });
    expect(plan.deleteSubmissions.some((r) => r.kind === 'deletion_request')).toBe(false);
  });

  it('deletes the account once and redacts its Persona inquiry', () => {
    expect(plan.deleteUsers).toEqual(['auth0|ada']);
    expect(plan.redactInquiries).toEqual(['inq_1']);
    expect(plan.deleted).toContainEqual({
      store: 'persona',
      key: 'inq_1',
      kind: 'kyc_inquiry',
      action: 'redacted',
    });
    expect(plan.deleted).toContainEqual({
      store: 'identityProvider',
      key: 'auth0|ada',
      kind: 'user_account',
      action: 'deleted',
    });
  });

  it('keeps the KYC decision and the consent ledger, each with its legal reason and the policy period after the relationship ends', () => {
    expect(plan.kept).toContainEqual({
      store: 'kycState',
      key: 'USER#auth0|ada',
      kind: 'kyc_decision',
      reason: retentionReasons.kycState,
      retainUntil: `${2026 + policyFacts.kycRetentionYears}-04-01T09:00:00.000Z`,
    });
    expect(plan.kept).toContainEqual({
      store: 'consentLedger',
      key: 'auth0|ada',
      kind: 'consent_record',
      count: 4,
      reason: retentionReasons.consentLedger,
      retainUntil: `${2026 + policyFacts.contractRetentionYears}-04-01T09:00:00.000Z`,
    });
    expect(retentionReasons.kycState).toContain(
      `${policyFacts.kycRetentionYears} years after the relationship ends`,
    );
    expect(retentionReasons.consentLedger).toContain(
      `${policyFacts.contractRetentionYears} years after the relationship ends`,
    );
  });

  it('plans nothing when nothing of the address exists, except keeping the request', () => {
    const empty = planErasure({
      submissions: [ref('DELETION#9', 'deletion_request')],
      userIds: [],
      kyc: [],
      consents: [],
      endedAt: new Date(),
    });
    expect(empty.deleted).toEqual([]);
    expect(empty.kept.map((k) => k.kind)).toEqual(['deletion_request']);
  });

  it('does not report an empty consent ledger, nor redact a KYC state without an inquiry', () => {
    const partial = planErasure({
      submissions: [],
      userIds: ['u'],
      kyc: [{ userId: 'u', status: 'not_started', inquiryIds: [] }],
      consents: [{ userId: 'u', count: 0 }],
      endedAt: new Date(),
    });
    expect(partial.redactInquiries).toEqual([]);
    expect(partial.kept.map((k) => k.store)).toEqual(['kycState']);
  });

  it('redacts every inquiry of the person, each reported, and keeps one KYC decision record', () => {
    const twice = planErasure({
      submissions: [],
      userIds: ['u'],
      kyc: [{ userId: 'u', status: 'approved', inquiryIds: ['inq_failed', 'inq_approved'] }],
      consents: [],
      endedAt: new Date('2026-04-01T09:00:00.000Z'),
    });
    expect(twice.redactInquiries).toEqual(['inq_failed', 'inq_approved']);
    expect(twice.deleted.filter((d) => d.store === 'persona').map((d) => [d.key, d.action])).toEqual([
      ['inq_failed', 'redacted'],
      ['inq_approved', 'redacted'],
    ]);
    expect(twice.kept.map((k) => k.kind)).toEqual(['kyc_decision']);
  });

  it('redacts the inquiries of a person who has no KYC state, and reports no decision kept', () => {
    const orphan = planErasure({
      submissions: [],
      userIds: ['u'],
      kyc: [{ userId: 'u', status: null, inquiryIds: ['inq_1'] }],
      consents: [],
      endedAt: new Date(),
    });
    expect(orphan.redactInquiries).toEqual(['inq_1']);
    expect(orphan.kept).toEqual([]);
  });

  it('merges what an interrupted run already removed with what a rerun removes, once each', () => {
    const a = { store: 'submissions' as const, key: 'A|X', kind: 'waitlist', action: 'deleted' as const };
    const b = {
      store: 'identityProvider' as const,
      key: 'u',
      kind: 'user_account',
      action: 'deleted' as const,
    };
    expect(mergeDeleted([a, b], [b])).toEqual([a, b]);
  });
});
