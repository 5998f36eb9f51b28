import * as z from 'zod/mini';
import { kycStatus } from './kyc.ts';
import { organizationType } from './organization.ts';

// The admin review queue (GET /api/admin/verifications) and decisions
// (POST /api/admin/verifications/{userId}/decision).

export const verificationStatusFilters = ['pending', 'approved', 'rejected', 'all'] as const;
export const verificationStatusFilter = z.enum(verificationStatusFilters, {
  error: 'Use pending, approved, rejected or all',
});
export type VerificationStatusFilter = z.infer<typeof verificationStatusFilter>;

/** Query string; `status` defaults to `pending` (the review queue). Unknown parameters are refused. */
export const listVerificationsQuery = z.strictObject({
  status: z.optional(verificationStatusFilter),
});
export type ListVerificationsQuery = z.infer<typeof listVerificationsQuery>;

export const verificationDecidedBy = z.enum(['persona', 'admin']);

/** One status transition of a user's verification, as the KYC table's history records it. */
export const verificationHistoryEntry = z.object({
  status: kycStatus,
  previousStatus: kycStatus,
  decidedBy: verificationDecidedBy,
  /** The deciding admin's user id; null for Persona. */
  adminId: z.nullable(z.string()),
  /** The admin's reason, or the Persona event that caused the change (`inquiry.approved`). */
  reason: z.nullable(z.string()),
  at: z.string(),
});
export type VerificationHistoryEntry = z.infer<typeof verificationHistoryEntry>;

/** The newest history entries an item carries (a user has a handful; this bounds a pathological one). */
export const verificationHistoryLimit = 50;

export const verificationItem = z.object({
  userId: z.string(),
  status: kycStatus,
  inquiryId: z.nullable(z.string()),
  updatedAt: z.string(),
  decidedBy: z.nullable(verificationDecidedBy),
  /**
   * From the user's registration; null for an account created another way (seeded, tests), which
   * the queue shows as such rather than guessing.
   */
  email: z.nullable(z.string()),
  name: z.nullable(z.string()),
  organizationName: z.nullable(z.string()),
  organizationUrl: z.nullable(z.string()),
  /** The segment (commercial, or defense and government) derives from it. */
  organizationType: z.nullable(organizationType),
  /** Oldest first. */
  history: z.array(verificationHistoryEntry),
});
export type VerificationItem = z.infer<typeof verificationItem>;

/** The queue shows at most this many items, newest change first. */
export const verificationListLimit = 200;

export const listVerificationsResponse = z.object({
  items: z.array(verificationItem),
  /** More verifications match than the queue shows (the newest `verificationListLimit` are listed). */
  truncated: z.boolean(),
});
export type ListVerificationsResponse = z.infer<typeof listVerificationsResponse>;

export const decisionMessages = {
  decision: 'Choose approved or rejected',
  reasonRequired: 'Please give a reason',
  reasonShort: 'The reason must be at least 3 characters',
  reasonLong: 'The reason must be at most 1000 characters',
} as const;

export const verificationDecisionRequest = z.strictObject({
  decision: z.enum(['approved', 'rejected'], { error: decisionMessages.decision }),
  reason: z
    .string(decisionMessages.reasonRequired)
    .check(
      z.trim(),
      z.minLength(3, decisionMessages.reasonShort),
      z.maxLength(1000, decisionMessages.reasonLong),
    ),
});
export type VerificationDecisionRequest = z.infer<typeof verificationDecisionRequest>;

export const verificationDecisionResponse = z.object({ userId: z.string(), kycStatus });
export type VerificationDecisionResponse = z.infer<typeof verificationDecisionResponse>;
