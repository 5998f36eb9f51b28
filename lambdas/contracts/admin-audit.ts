import * as z from 'zod/mini';
import { route } from './route.ts';

// The admin audit trail (ADR 0078): what reviewers and operators did, as one append-only hash chain.
// The entry's shape is the contract of `npm run audit:admin`'s export and of the review screen's
// trail (GET /api/admin/verifications/{userId}/audit-trail).

/**
 * - `verification_proposed`: with four-eyes on (ADR 0080), a reviewer proposed a decision that a
 *   second reviewer must confirm; the status did not change;
 * - `verification_decided`: a reviewer approved or rejected an undecided verification;
 * - `verification_reversed`: a reviewer turned a decision (Persona's or a reviewer's) around;
 * - `new_attempt_allowed`: a reviewer allowed a rejected person another attempt;
 * - `erasure_run`: an operator carried out a data-deletion request (`npm run data:erase`);
 * - `role_changed`: an operator made someone an admin or took the role away (`npm run admin:role`);
 * - `provisioning_applied`: an operator applied the Auth0 configuration (`npm run auth0:provision`);
 * - `member_invited`, `invitation_resent`, `invitation_revoked`: an organization's `org_admin` on
 *   the team page (ADR 0084); the recipient is named by the SHA-256 of their mailbox, not the address;
 * - `member_joined`: an invitee accepted and became a member;
 * - `member_role_changed`, `member_removed`: an `org_admin` changed a member's role or removed them.
 */
export const adminAuditActions = [
  'verification_proposed',
  'verification_decided',
  'verification_reversed',
  'new_attempt_allowed',
  'erasure_run',
  'role_changed',
  'provisioning_applied',
  'member_invited',
  'invitation_resent',
  'invitation_revoked',
  'member_joined',
  'member_role_changed',
  'member_removed',
] as const;
export type AdminAuditAction = (typeof adminAuditActions)[number];

/**
 * Who acted: a reviewer through the API (their token's `sub`), an operator's command (their AWS
 * principal), or a person in their organization's workspace (`member`: an `org_admin` on the team
 * page, an invitee joining; their `sub`, ADR 0084).
 */
export const adminAuditActorTypes = ['admin', 'operator', 'member'] as const;
export type AdminAuditActorType = (typeof adminAuditActorTypes)[number];

/**
 * On what: a person's verification or account (their `sub`), a deletion request, the Auth0 tenant,
 * an organization's member (their `sub`) or invitation (Auth0's `uinv_…` id).
 */
export const adminAuditTargetTypes = [
  'verification',
  'user',
  'deletion_request',
  'auth0_tenant',
  'organization_member',
  'organization_invitation',
] as const;
export type AdminAuditTargetType = (typeof adminAuditTargetTypes)[number];

const detailValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One entry as the chain stores it: every attribute is in the hash except `hash` and `expiresAt`. */
export const adminAuditEntry = z.object({
  chain: z.string(),
  sequence: z.number(),
  entryId: z.string(),
  /** Server time of the append (ISO 8601, UTC). */
  recordedAt: z.string(),
  actorType: z.enum(adminAuditActorTypes),
  actorId: z.string(),
  action: z.enum(adminAuditActions),
  targetType: z.enum(adminAuditTargetTypes),
  targetId: z.string(),
  /** The decision's reason code; null for an action without one. */
  reasonCode: z.nullable(z.string()),
  /** Why, in the actor's words (a reviewer's note, an operator's reason); null when none was given. */
  reason: z.nullable(z.string()),
  /** What changed, flat: `{ from, to, inquiryId }`, `{ role }`, `{ created, updated }`. */
  details: z.record(z.string(), detailValue),
  /** The API request or command run that appended it. */
  requestId: z.nullable(z.string()),
  previousHash: z.nullable(z.string()),
  hash: z.string(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntry>;

/** The newest entries the review screen shows for one verification. */
export const auditTrailLimit = 50;

export const verificationAuditTrailResponse = z.object({
  userId: z.string(),
  /** Oldest first; at most `auditTrailLimit` (the newest). */
  entries: z.array(adminAuditEntry),
  truncated: z.boolean(),
});
export type VerificationAuditTrailResponse = z.infer<typeof verificationAuditTrailResponse>;

export const getVerificationAuditTrailRoute = route('GetVerificationAuditTrail', {
  auth: 'admin',
  response: verificationAuditTrailResponse,
  successStatus: 200,
  problems: [],
});
