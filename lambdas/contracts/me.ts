import * as z from 'zod/mini';
import { kycStatus, role } from './kyc.ts';
import { organizationRoles, organizationType } from './organization.ts';
import { route } from './route.ts';

// GET /api/me (docs/design.md section 3). The server's view of the caller: the identity provider's
// user, the KYC table and the consent ledger, never the token. The signed-in shell validates this
// answer, so this module holds nothing else: POST /api/me/verification-email is ./verification-email.ts.

/**
 * The signed-in person's own deletion request while it has not been carried out (`deletionRequest`
 * below; ADR 0076): `received` may still be cancelled, `in_progress` is being carried out. Here, not
 * in ./data-deletion.ts, so the signed-in shell, which validates this answer, carries none of the
 * deletion forms' schemas.
 */
export const ownDeletionRequestState = z.strictObject({
  requestId: z.string(),
  status: z.enum(['received', 'in_progress']),
  /**
   * When the request was made (ISO 8601, UTC), and the date (YYYY-MM-DD, UTC) by which it will be
   * carried out. Plain strings, as the answer's other dates: zod's ISO checks would be the shell's
   * only ones (about 1 KiB on /kyc/persona's 200 KiB budget).
   */
  requestedAt: z.string(),
  dueBy: z.string(),
  /** True until the operator starts carrying it out. */
  cancellable: z.boolean(),
});
export type OwnDeletionRequestState = z.infer<typeof ownDeletionRequestState>;

export const meResponse = z.strictObject({
  userId: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  name: z.string(),
  /** From the stored registration; null for accounts created another way (seeded, admin). */
  organizationName: z.nullable(z.string()),
  organizationType: z.nullable(organizationType),
  /**
   * The Auth0 organization registration created for it (ADR 0083): the web signs in through it
   * (`/authorize?organization=`). Null for accounts registered before organizations, seeded, admin.
   */
  organizationId: z.nullable(z.string()),
  /**
   * The caller's role in that organization, from the product's own membership record (ADR 0084):
   * `org_admin` sees the team page. Null without an organization.
   */
  organizationRole: z.nullable(z.enum(organizationRoles)),
  role,
  kycStatus,
  /** The caller's latest identity-verification consent record is a grant. */
  consentRecorded: z.boolean(),
  /**
   * The caller's latest identity-verification consent record is a withdrawal: false for someone
   * who never consented, and again after consenting anew (ADR 0075).
   */
  consentWithdrawn: z.boolean(),
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

export const getMeRoute = route('GetMe', {
  auth: 'user',
  response: meResponse,
  successStatus: 200,
  problems: ['accountNotFound', 'organizationMembershipEnded'],
});
