import { randomBytes } from 'node:crypto';

// Persona webhook bodies as Persona sends them, for tooling and tests
// (tests/helpers/persona-webhooks.ts re-exports these).

/** The body of POST /api/consents that gives identity-verification consent, every statement ticked. */
export const identityVerificationConsent = {
  identity_verification_consent: true,
  biometric_data_consent: true,
  privacy_policy_consent: true,
  consent_type: 'identity_verification',
} as const;

/**
 * A Persona inquiry event (`inquiry.approved`, ...) about the user's inquiry, as its webhook body.
 * `included`: the payload's related objects (verifications, ...); none by default.
 */
export function personaEvent(
  name: string,
  user: { userId: string; inquiryId: string },
  createdAt: Date,
  included: readonly unknown[] = [],
) {
  return JSON.stringify({
    data: {
      type: 'event',
      id: `evt_${randomBytes(12).toString('hex')}`,
      attributes: {
        name,
        'created-at': createdAt.toISOString(),
        payload: {
          data: {
            type: 'inquiry',
            id: user.inquiryId,
            attributes: { status: name.split('.')[1], 'reference-id': user.userId },
          },
          included,
        },
      },
    },
  });
}

/**
 * A verification as a webhook's `included` carries it (Persona's API schema): `kind` as in
 * `verification/<kind>`, the named checks failed, the others passed.
 */
export function personaVerification(
  kind: string,
  checks: { failed?: readonly string[]; passed?: readonly string[] },
) {
  const check = (name: string, status: 'passed' | 'failed') => ({
    name,
    status,
    reasons: status === 'failed' ? [`${name} did not pass.`] : [],
    requirement: 'required',
    metadata: {},
  });
  const failed = checks.failed ?? [];
  return {
    type: `verification/${kind}`,
    id: `ver_${randomBytes(12).toString('hex')}`,
    attributes: {
      status: failed.length > 0 ? 'failed' : 'passed',
      checks: [
        ...failed.map((name) => check(name, 'failed')),
        ...(checks.passed ?? []).map((name) => check(name, 'passed')),
      ],
    },
  };
}
