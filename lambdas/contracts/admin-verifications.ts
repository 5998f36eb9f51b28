import * as z from 'zod/mini';
import { flaggedChecks } from './flagged-checks.ts';
import { kycStatus } from './kyc.ts';
import {
  type DecisionReasonCode,
  decisionReasonCodes,
  decisionReasons,
  reviewerReasonCodeList,
} from './kyc-reasons.ts';
import { organizationType } from './organization.ts';
import { route } from './route.ts';

// The admin review queue (GET /api/admin/verifications) and decisions
// (POST /api/admin/verifications/{userId}/decision).

export const listVerificationsMessages = {
  status: 'Use pending, approved, rejected or all',
  sort: 'Use newest or oldest',
  cursor: 'This page no longer exists: start again from the first page',
  q: 'Search with 2 to 100 characters',
} as const;

export const verificationStatusFilters = ['pending', 'approved', 'rejected', 'all'] as const;
export const verificationStatusFilter = z.enum(verificationStatusFilters, {
  error: listVerificationsMessages.status,
});
export type VerificationStatusFilter = z.infer<typeof verificationStatusFilter>;

/** The queue's orders: by the time of the last change, newest or oldest first (ADR 0082). */
export const verificationSorts = ['newest', 'oldest'] as const;
export type VerificationSort = (typeof verificationSorts)[number];

/** The queue's page: a reviewer sees this many cards at a time, and the next page by its cursor. */
export const verificationPageSize = 25;
/** A search reads at most this many verifications of the filter before it stops (ADR 0082). */
export const verificationSearchLimit = 5000;

/** Where a page ends: the last listed item's change time and user id (the order's tie-break). */
export interface VerificationCursor {
  updatedAt: string;
  userId: string;
}

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

function base64UrlDecode(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function base64UrlEncode(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  const base64 = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
  // base64 ends with at most two `=`: cut them without a regex anchored at the end.
  let end = base64.length;
  while (end > 0 && base64[end - 1] === '=') end -= 1;
  return base64.slice(0, end);
}

/** The opaque `cursor` of a page's end; `decodeVerificationCursor` gives it back, or undefined. */
export function encodeVerificationCursor(cursor: VerificationCursor): string {
  return base64UrlEncode(JSON.stringify([cursor.updatedAt, cursor.userId]));
}

export function decodeVerificationCursor(text: string): VerificationCursor | undefined {
  const json = base64UrlDecode(text);
  if (json === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [updatedAt, userId] = value as unknown[];
  if (typeof updatedAt !== 'string' || !isoInstant.test(updatedAt)) return undefined;
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 256) return undefined;
  return { updatedAt, userId };
}

/**
 * Query string; `status` defaults to `pending` (the review queue), `sort` to `newest`. `q` searches
 * the organization name and the email (case-insensitive, a part of either); `cursor` is the
 * previous page's `nextCursor`. Unknown parameters are refused.
 */
export const listVerificationsQuery = z.strictObject({
  status: z.optional(verificationStatusFilter),
  sort: z.optional(z.enum(verificationSorts, { error: listVerificationsMessages.sort })),
  q: z.optional(
    z
      .string(listVerificationsMessages.q)
      .check(
        z.trim(),
        z.minLength(2, listVerificationsMessages.q),
        z.maxLength(100, listVerificationsMessages.q),
      ),
  ),
  cursor: z.optional(
    z.string(listVerificationsMessages.cursor).check(
      z.maxLength(1024, listVerificationsMessages.cursor),
      z.refine((text) => decodeVerificationCursor(text) !== undefined, listVerificationsMessages.cursor),
    ),
  ),
});
export type ListVerificationsQuery = z.infer<typeof listVerificationsQuery>;

/**
 * Who changed the status: Persona's result, a reviewer, or the person (starting a new attempt a
 * reviewer allowed, which takes a rejected verification back to not_started).
 */
export const verificationDecidedBy = z.enum(['persona', 'admin', 'user']);

const reasonCodeSchema = z.enum(decisionReasonCodes as [DecisionReasonCode, ...DecisionReasonCode[]]);

/**
 * What a history entry records: a status change; a reviewer allowing a new attempt; Persona's
 * decision (`status`) arriving after a reviewer's (`previousStatus`), which stands; or, with
 * four-eyes on, a reviewer's proposal (`status`) that a second reviewer must confirm (ADR 0080).
 */
export const verificationHistoryActions = [
  'status_changed',
  'new_attempt_allowed',
  'decision_held',
  'decision_proposed',
] as const;

/** One status transition of a user's verification, as the KYC table's history records it. */
export const verificationHistoryEntry = z.object({
  status: kycStatus,
  previousStatus: kycStatus,
  decidedBy: verificationDecidedBy,
  /** The deciding admin's user id; null for Persona. */
  adminId: z.nullable(z.string()),
  /** The admin's internal note, or the Persona event that caused the change (`inquiry.approved`). */
  reason: z.nullable(z.string()),
  /** The decision's reason code (the person sees its message); null for other changes. */
  reasonCode: z.nullable(reasonCodeSchema),
  action: z.enum(verificationHistoryActions),
  at: z.string(),
});
export type VerificationHistoryEntry = z.infer<typeof verificationHistoryEntry>;

/** The newest history entries an item carries (a user has a handful; this bounds a pathological one). */
export const verificationHistoryLimit = 50;

/** A proposed decision (four-eyes, ADR 0080). */
export const verificationProposal = z.object({
  decision: z.enum(['approved', 'rejected']),
  reasonCode: reasonCodeSchema,
  /** The proposing reviewer's user id. */
  adminId: z.string(),
  at: z.string(),
});
export type VerificationProposal = z.infer<typeof verificationProposal>;

export const verificationItem = z.object({
  userId: z.string(),
  status: kycStatus,
  inquiryId: z.nullable(z.string()),
  updatedAt: z.string(),
  decidedBy: z.nullable(verificationDecidedBy),
  /** The current decision's reason code (approved or rejected); null otherwise. */
  reasonCode: z.nullable(reasonCodeSchema),
  /**
   * Only a submitted inquiry can be decided: false while the verification has not started or the
   * person has not yet finished the inquiry of the current attempt (`not_started`).
   */
  submitted: z.boolean(),
  /** The person's current attempt (0 before the first inquiry); at most `maxVerificationAttempts`. */
  attempt: z.number(),
  /** A reviewer allowed a new attempt after the rejection; the person has not started it yet. */
  newAttemptAllowed: z.boolean(),
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
  /**
   * Four-eyes (ADR 0080): a decision a reviewer proposed, waiting for a second, different reviewer
   * to confirm it (the same decision); null when none is waiting.
   */
  proposal: z.nullable(verificationProposal),
  /**
   * Why Persona flagged the case, in brief: the checks that failed, as the last applied webhook
   * event of the current inquiry listed them (ADR 0082's amendment; stored with the state, so no
   * call to Persona). Empty when none failed or none is known; the evidence route has the details.
   */
  flaggedChecks,
  /** Oldest first. */
  history: z.array(verificationHistoryEntry),
});
export type VerificationItem = z.infer<typeof verificationItem>;

export const listVerificationsResponse = z.object({
  /** One page (at most `verificationPageSize`), in the requested order. */
  items: z.array(verificationItem),
  /** The next page's `cursor`; null on the last page. */
  nextCursor: z.nullable(z.string()),
  /**
   * A search stopped after `verificationSearchLimit` verifications of the filter: older ones
   * (newer ones, sorted oldest first) were not searched.
   */
  truncated: z.boolean(),
});
export type ListVerificationsResponse = z.infer<typeof listVerificationsResponse>;

export const decisionMessages = {
  decision: 'Choose approved or rejected',
  reasonCode: 'Choose the reason for the decision',
  reasonCodeMismatch: 'This reason does not fit the decision',
  reasonRequired: 'Please give a reason',
  reasonShort: 'The reason must be at least 3 characters',
  reasonLong: 'The reason must be at most 1000 characters',
} as const;

/**
 * A reviewer's decision: the reason code (from the reviewer's list, matching the decision) is what
 * the person is told; `reason` is an optional internal note, never shown to them.
 */
export const verificationDecisionRequest = z
  .strictObject({
    decision: z.enum(['approved', 'rejected'], { error: decisionMessages.decision }),
    reasonCode: z.enum(reviewerReasonCodeList, { error: decisionMessages.reasonCode }),
    reason: z.optional(
      z.string(decisionMessages.reasonLong).check(z.trim(), z.maxLength(1000, decisionMessages.reasonLong)),
    ),
  })
  .check(
    z.refine((body) => decisionReasons[body.reasonCode].decision === body.decision, {
      error: decisionMessages.reasonCodeMismatch,
      path: ['reasonCode'],
    }),
  );
export type VerificationDecisionRequest = z.infer<typeof verificationDecisionRequest>;

export const verificationDecisionResponse = z.object({
  userId: z.string(),
  kycStatus,
  reasonCode: reasonCodeSchema,
  /**
   * `decided`: the status is the decision. `proposed`: four-eyes (ADR 0080) holds it until a
   * second reviewer confirms the same decision; the status did not change.
   */
  outcome: z.enum(['decided', 'proposed']),
});
export type VerificationDecisionResponse = z.infer<typeof verificationDecisionResponse>;

/** A reviewer allows a rejected person a new attempt; the reason is internal (history, queue). */
export const newAttemptRequest = z.strictObject({
  reason: z
    .string(decisionMessages.reasonRequired)
    .check(
      z.trim(),
      z.minLength(3, decisionMessages.reasonShort),
      z.maxLength(1000, decisionMessages.reasonLong),
    ),
});
export type NewAttemptRequest = z.infer<typeof newAttemptRequest>;

export const newAttemptResponse = z.object({
  userId: z.string(),
  kycStatus,
  newAttemptAllowed: z.literal(true),
  /** The attempt the person has used so far; the new one will be `attempt + 1`. */
  attempt: z.number(),
  maxAttempts: z.number(),
});
export type NewAttemptResponse = z.infer<typeof newAttemptResponse>;

export const listVerificationsRoute = route('ListVerifications', {
  auth: 'admin',
  query: listVerificationsQuery,
  response: listVerificationsResponse,
  successStatus: 200,
  problems: [],
});

export const decideVerificationRoute = route('DecideVerification', {
  auth: 'admin',
  body: verificationDecisionRequest,
  response: verificationDecisionResponse,
  successStatus: 200,
  problems: [
    'ownVerification',
    'secondReviewerRequired',
    'verificationNotFound',
    'verificationNotSubmitted',
    'concurrentChange',
  ],
});

export const allowVerificationAttemptRoute = route('AllowVerificationAttempt', {
  auth: 'admin',
  body: newAttemptRequest,
  response: newAttemptResponse,
  successStatus: 200,
  problems: [
    'ownVerification',
    'verificationNotFound',
    'verificationNotRejected',
    'attemptsExhausted',
    'concurrentChange',
  ],
});
