import { describe, expect, it } from 'vitest';
import { VerificationNotFoundError } from '#lambdas/domain/kyc/errors.ts';
import type { KycRecord } from '#lambdas/domain/kyc/ports.ts';
import { getVerificationEvidence, type InquiryEvidence } from '#lambdas/domain/kyc/verification-evidence.ts';

// Why Persona flagged a case (ADR 0082): the current inquiry's verifications with only their failed
// checks, read from Persona for one card; nothing stored, nothing read for a person without one.

const record = (overrides: Partial<KycRecord> = {}): KycRecord => ({
  userId: 'auth0|u1',
  status: 'pending',
  updatedAt: '2026-11-20T00:00:00.000Z',
  inquiryId: 'inq_current',
  referenceId: 'auth0|u1',
  version: 3,
  lastEventId: null,
  lastEventAt: null,
  decidedBy: 'persona',
  reasonCode: null,
  attempt: 1,
  newAttemptAllowed: false,
  erased: false,
  proposal: null,
  ...overrides,
});

const evidence: InquiryEvidence = {
  inquiryId: 'inq_current',
  status: 'declined',
  redactedAt: null,
  verifications: [
    {
      id: 'ver_id',
      type: 'verification/government-id',
      status: 'failed',
      checks: [
        { name: 'id_tamper_detection', status: 'failed', reasons: ['tampered'] },
        { name: 'id_expired', status: 'passed', reasons: [] },
        { name: 'id_barcode_detection', status: 'not_applicable', reasons: [] },
      ],
    },
    { id: 'ver_selfie', type: 'verification/selfie', status: 'passed', checks: [] },
  ],
};

function setup(state: KycRecord | undefined) {
  const reads: string[] = [];
  const get = getVerificationEvidence({
    store: { getRecord: async () => state },
    persona: {
      getInquiryEvidence: async (inquiryId) => {
        reads.push(inquiryId);
        return evidence;
      },
    },
  });
  return { get, reads };
}

describe('getVerificationEvidence', () => {
  it("reads the current inquiry from Persona and keeps each verification's failed checks only", async () => {
    const { get, reads } = setup(record());
    expect(await get('auth0|u1')).toEqual({
      userId: 'auth0|u1',
      inquiryId: 'inq_current',
      inquiryStatus: 'declined',
      redacted: false,
      verifications: [
        {
          id: 'ver_id',
          type: 'government-id',
          status: 'failed',
          failedChecks: [{ name: 'id_tamper_detection', status: 'failed', reasons: ['tampered'] }],
        },
        { id: 'ver_selfie', type: 'selfie', status: 'passed', failedChecks: [] },
      ],
      dashboardUrl: 'https://app.withpersona.com/dashboard/inquiries/inq_current',
    });
    expect(reads).toEqual(['inq_current']);
  });

  it.each([
    ['no state', undefined],
    ['no inquiry yet', record({ inquiryId: null, status: 'not_started' })],
    ['an erased person (ADR 0077)', record({ erased: true })],
  ])('answers not found for %s, without asking Persona', async (_name, state) => {
    const { get, reads } = setup(state);
    await expect(get('auth0|u1')).rejects.toBeInstanceOf(VerificationNotFoundError);
    expect(reads).toEqual([]);
  });
});
