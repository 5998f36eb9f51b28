import * as z from 'zod/mini';
import { kycStatus } from './kyc.ts';

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

export const verificationItem = z.object({
  userId: z.string(),
  status: kycStatus,
  inquiryId: z.nullable(z.string()),
  updatedAt: z.string(),
  decidedBy: z.nullable(z.enum(['persona', 'admin'])),
});
export type VerificationItem = z.infer<typeof verificationItem>;

export const listVerificationsResponse = z.object({ items: z.array(verificationItem) });
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
