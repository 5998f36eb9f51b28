import * as z from 'zod/mini';
import { userId } from './common.ts';
import { consentPurposes } from './consent-documents.ts';
import { route } from './route.ts';

// POST /api/consents and GET /api/me/consents (docs/design.md section 3).
//
// Granting needs all three statements `true`: a `false` is a refusal, which the API answers with
// 400 and the statement's message, and which is not recorded (the ledger proves consent that was
// given; a refusal changes nothing and proves nothing). Withdrawing is a separate action, recorded
// as a new `withdrawn` record, not a `false` here.

export const consentMessages = {
  identity_verification_consent: 'You must agree to identity verification',
  biometric_data_consent: 'You must consent to the processing of biometric data',
  privacy_policy_consent: 'You must confirm that you have read the privacy policy',
  consent_type: 'Unknown consent type',
  locale: 'Unsupported language',
  document_version: 'Unknown document version',
} as const;

export const consentLocales = ['en', 'de'] as const;

export const consentRequest = z.strictObject({
  identity_verification_consent: z.literal(true, consentMessages.identity_verification_consent),
  biometric_data_consent: z.literal(true, consentMessages.biometric_data_consent),
  privacy_policy_consent: z.literal(true, consentMessages.privacy_policy_consent),
  consent_type: z.literal('identity_verification', consentMessages.consent_type),
  /** Optional, and if present must be the caller's own id (403 otherwise): never who is recorded. */
  user_id: z.optional(userId),
  /** The language of the interface in which the person agreed; defaults to the document's. */
  locale: z.optional(z.enum(consentLocales, consentMessages.locale)),
  /** The version the person was shown; a version other than the current one gives 409. */
  document_version: z.optional(
    z.string(consentMessages.document_version).check(z.minLength(1), z.maxLength(64)),
  ),
});
export type ConsentRequest = z.infer<typeof consentRequest>;

export const consentCreated = z.object({
  success: z.literal(true),
  consentId: z.string(),
  recordedAt: z.string(),
});
export type ConsentCreated = z.infer<typeof consentCreated>;

/** What a person may see of their own ledger records: no IP address, no user agent. */
export const consentHistoryRecord = z.object({
  consentId: z.string(),
  purpose: z.enum(consentPurposes),
  action: z.enum(['granted', 'withdrawn']),
  statements: z.record(z.string(), z.boolean()),
  documentVersion: z.string(),
  documentSha256: z.string(),
  locale: z.string(),
  method: z.enum(['consent_dialog', 'registration_wizard', 'account_page']),
  recordedAt: z.string(),
  sequence: z.number(),
  hash: z.string(),
  previousHash: z.nullable(z.string()),
});
export type ConsentHistoryRecord = z.infer<typeof consentHistoryRecord>;

export const consentHistory = z.object({ records: z.array(consentHistoryRecord) });
export type ConsentHistory = z.infer<typeof consentHistory>;

export const createConsentRoute = route('CreateConsent', {
  auth: 'user',
  body: consentRequest,
  response: consentCreated,
  successStatus: 201,
  problems: ['forbidden', 'emailNotVerified', 'consentDocumentChanged', 'consentLedgerBusy', 'rateLimited'],
});

/**
 * POST /api/me/consent-withdrawals: withdraws the caller's standing consent of that type (GDPR
 * Art. 7(3), ADR 0075). Only the consent that can be given in the product can be withdrawn here.
 */
export const consentWithdrawalRequest = z.strictObject({
  consent_type: z.literal('identity_verification', consentMessages.consent_type),
});
export type ConsentWithdrawalRequest = z.infer<typeof consentWithdrawalRequest>;

/** 201: the ledger record appended (a `withdrawn` record in the caller's chain), as the person sees it. */
export const withdrawConsentRoute = route('WithdrawConsent', {
  auth: 'user',
  body: consentWithdrawalRequest,
  response: consentHistoryRecord,
  successStatus: 201,
  problems: ['consentNotActive', 'consentLedgerBusy', 'rateLimited'],
});

export const listMyConsentsRoute = route('ListMyConsents', {
  auth: 'user',
  response: consentHistory,
  successStatus: 200,
  problems: [],
});
