import * as z from 'zod/mini';
import { route } from './route.ts';

// The evidence behind one verification (GET /api/admin/verifications/{userId}/evidence, ADR 0082):
// what Persona's inquiry says, read from Persona when a reviewer opens it on a card. The queue
// (GET /api/admin/verifications) stays one request and never calls Persona.

/** The inquiry in Persona's dashboard (the reviewer signs in there with their own Persona account). */
export function personaInquiryDashboardUrl(inquiryId: string): string {
  return `https://app.withpersona.com/dashboard/inquiries/${encodeURIComponent(inquiryId)}`;
}

/** One verification check as Persona reports it (`name` e.g. `id_tamper_detection`). */
export const verificationCheck = z.object({
  name: z.string(),
  /** `passed`, `failed` or `not_applicable`; kept as Persona sends it. */
  status: z.string(),
  /** Persona's reasons for the result (may be empty). */
  reasons: z.array(z.string()),
});
export type VerificationCheck = z.infer<typeof verificationCheck>;

/** One verification of the inquiry (government ID, selfie, ...) with the checks that failed. */
export const verificationEvidenceItem = z.object({
  id: z.string(),
  /** Persona's type without its `verification/` prefix: `government-id`, `selfie`, `database`, ... */
  type: z.string(),
  /** `initiated`, `submitted`, `passed`, `failed`, ... as Persona sends it. */
  status: z.string(),
  /** Only the checks whose status is `failed`: why Persona did not pass it. */
  failedChecks: z.array(verificationCheck),
});
export type VerificationEvidenceItem = z.infer<typeof verificationEvidenceItem>;

export const verificationEvidenceResponse = z.object({
  userId: z.string(),
  inquiryId: z.string(),
  /** Persona's status of the inquiry now (`needs_review`, `declined`, `failed`, `approved`, ...). */
  inquiryStatus: z.string(),
  /** Persona erased the inquiry's personal data: nothing about its checks can be shown. */
  redacted: z.boolean(),
  /** Oldest first, as Persona lists them. */
  verifications: z.array(verificationEvidenceItem),
  /** `personaInquiryDashboardUrl(inquiryId)`. */
  dashboardUrl: z.string(),
});
export type VerificationEvidenceResponse = z.infer<typeof verificationEvidenceResponse>;

export const getVerificationEvidenceRoute = route('GetVerificationEvidence', {
  auth: 'admin',
  response: verificationEvidenceResponse,
  successStatus: 200,
  problems: ['verificationNotFound', 'verificationProviderUnavailable'],
});
