import * as z from 'zod/mini';
import { ownDeletionRequestState } from './data-deletion.ts';
import { kycStatus, role } from './kyc.ts';
import { organizationType } from './organization.ts';
import { route } from './route.ts';

// GET /api/me and POST /api/me/verification-email (docs/design.md section 3). The server's view of the
// caller: the identity provider's user, the KYC table and the consent ledger, never the token.

export const meResponse = z.strictObject({
  userId: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  name: z.string(),
  /** From the stored registration; null for accounts created another way (seeded, admin). */
  organizationName: z.nullable(z.string()),
  organizationType: z.nullable(organizationType),
  role,
  kycStatus,
  /** The caller's latest identity-verification consent record is a grant. */
  consentRecorded: z.boolean(),
  /**
   * Why the verification was decided, as the person may read it (a code of
   * `lambdas/contracts/kyc-reasons.ts` and its message); null while undecided. The code is a plain
   * string here so the signed-in shell does not carry the reasons table.
   */
  kycReason: z.nullable(z.strictObject({ code: z.string(), message: z.string() })),
  /** A reviewer allowed a new attempt after a rejection: the status screen offers "Verify again". */
  kycNewAttemptAllowed: z.boolean(),
  /** Attempts used (0 before the first inquiry) and the most a person gets. */
  kycAttempts: z.strictObject({ used: z.number(), max: z.number() }),
  /** The caller's own data-deletion request while it has not been carried out; null when none. */
  deletionRequest: z.nullable(ownDeletionRequestState),
});
export type MeResponse = z.infer<typeof meResponse>;

export const verificationEmailResponse = z.union([
  z.strictObject({ success: z.literal(true) }),
  z.strictObject({ success: z.literal(true), alreadyVerified: z.literal(true) }),
]);
export type VerificationEmailResponse = z.infer<typeof verificationEmailResponse>;

export const getMeRoute = route('GetMe', {
  auth: 'user',
  response: meResponse,
  successStatus: 200,
  problems: ['accountNotFound'],
});

/** 202 when an email is sent; 200 with `alreadyVerified` when there is nothing to do. */
export const sendVerificationEmailRoute = route('SendVerificationEmail', {
  auth: 'user',
  response: verificationEmailResponse,
  successStatus: 202,
  problems: ['rateLimited', 'serviceUnavailable'],
});
