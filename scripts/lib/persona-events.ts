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

/** A Persona inquiry event (`inquiry.approved`, ...) about the user's inquiry, as its webhook body. */
export function personaEvent(name: string, user: { userId: string; inquiryId: string }, createdAt: Date) {
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
          included: [],
        },
      },
    },
  });
}
