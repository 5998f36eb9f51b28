import { newId } from './http-util.ts';
import type { Outcome } from './types.ts';

// The verifications an inquiry of the emulator holds once the tester picks an outcome, in the
// shape of Persona's verification objects (`GET /api/v1/inquiries/{id}?include=verifications`
// lists them in `included`): JSON:API type `verification/<kind>`, `attributes.status` (`passed` or
// `failed`) and `attributes.checks`, each `{ name, status, reasons, requirement, metadata }` with
// status `passed`, `failed` or `not_applicable`. The check names are Persona's (its verification
// checks' slugs); which ones fail for an outcome is the emulator's choice, so that the review
// screen has something to show for each: "Needs review" a selfie that did not match the ID,
// "Decline" a tampered ID, "Fail" an ID that could not be read (the inquiry ran out of attempts).

export interface EmulatedCheck {
  name: string;
  status: 'passed' | 'failed' | 'not_applicable';
  reasons: string[];
  requirement: 'required' | 'not_required';
  metadata: Record<string, unknown>;
}

export interface EmulatedVerification {
  id: string;
  type: 'verification/government-id' | 'verification/selfie';
  status: 'passed' | 'failed';
  createdAt: string;
  completedAt: string;
  checks: EmulatedCheck[];
}

const governmentIdChecks = [
  'id_unprocessable_submission_detection',
  'id_tamper_detection',
  'id_fabrication_detection',
  'id_expired',
  'id_age_comparison',
  'id_barcode_detection',
] as const;
const selfieChecks = [
  'selfie_id_comparison',
  'selfie_liveness_detection',
  'selfie_face_covering_detection',
] as const;

/** Which checks fail for an outcome, with their reasons. */
const failures: Record<Outcome, Partial<Record<string, string[]>>> = {
  approve: {},
  review: { selfie_id_comparison: ['The face in the selfie does not match the portrait on the ID.'] },
  decline: {
    id_tamper_detection: ['The ID shows signs of digital tampering.'],
    id_fabrication_detection: ['The ID may be a fabricated or template document.'],
  },
  fail: { id_unprocessable_submission_detection: ['The ID photo was too blurry to read.'] },
};

function checksOf(names: readonly string[], outcome: Outcome): EmulatedCheck[] {
  return names.map((name) => {
    const reasons = failures[outcome][name];
    return {
      name,
      status: reasons ? 'failed' : name === 'id_barcode_detection' ? 'not_applicable' : 'passed',
      reasons: reasons ?? [],
      requirement: 'required',
      metadata: {},
    };
  });
}

/** The government ID and selfie verifications of an inquiry finished with `outcome`. */
export function verificationsFor(outcome: Outcome, now: string): EmulatedVerification[] {
  return (
    [
      ['verification/government-id', governmentIdChecks],
      ['verification/selfie', selfieChecks],
    ] as const
  ).map(([type, names]) => {
    const checks = checksOf(names, outcome);
    return {
      id: newId('ver'),
      type,
      status: checks.some((check) => check.status === 'failed') ? 'failed' : 'passed',
      createdAt: now,
      completedAt: now,
      checks,
    };
  });
}

/** A verification as Persona's API returns it in `included`. */
export function verificationResource(verification: EmulatedVerification): Record<string, unknown> {
  return {
    type: verification.type,
    id: verification.id,
    attributes: {
      status: verification.status,
      'created-at': verification.createdAt,
      'submitted-at': verification.createdAt,
      'completed-at': verification.completedAt,
      checks: verification.checks.map((check) => ({ ...check, metadata: { ...check.metadata } })),
    },
  };
}
