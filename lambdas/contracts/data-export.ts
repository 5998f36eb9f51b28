import * as z from 'zod/mini';
import { consentHistoryRecord } from './consent.ts';
import { kycStatus, role } from './kyc.ts';
import { organizationType } from './organization.ts';
import { route } from './route.ts';

// GET /api/me/export (GDPR Art. 15 and 20; ADR 0076): everything the product holds about the
// caller, as one JSON document the person downloads. Read from the product's own stores only (no
// Auth0 Management API call on a user's request, ADR 0059).

/** The document's format name; `version` changes when a field changes meaning or goes. */
export const dataExportFormat = 'platform-personal-data-export';

const kycHistoryEntry = z.strictObject({
  from: kycStatus,
  to: kycStatus,
  /** Who changed it: the verification provider, a reviewer (not named: another person) or the person. */
  by: z.enum(['persona', 'admin', 'user']),
  action: z.enum(['status_changed', 'new_attempt_allowed', 'decision_held']),
  /** The reason code (`lambdas/contracts/kyc-reasons.ts`), when a decision gave one. */
  reasonCode: z.nullable(z.string()),
  at: z.string(),
});

export const dataExport = z.strictObject({
  format: z.literal(dataExportFormat),
  version: z.literal(1),
  /** When the document was made (ISO 8601, UTC). */
  generatedAt: z.iso.datetime(),
  profile: z.strictObject({
    userId: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    name: z.string(),
    role,
  }),
  organization: z.nullable(
    z.strictObject({
      name: z.string(),
      type: z.nullable(organizationType),
      url: z.nullable(z.string()),
    }),
  ),
  /** The registration as it was accepted; null for an account created another way. */
  registration: z.nullable(
    z.strictObject({
      registeredAt: z.string(),
      email: z.string(),
      responsibleName: z.string(),
      responsibleTitle: z.string(),
      responsiblePhone: z.string(),
      organizationName: z.string(),
      organizationUrl: z.string(),
      organizationType,
    }),
  ),
  /**
   * Every consent record, granted and withdrawn, oldest first: the exact text version shown
   * (`documentVersion`, `documentSha256`, `locale`) and the statements agreed to.
   */
  consents: z.array(consentHistoryRecord),
  /** The identity verification: statuses and dates only (no document images or biometrics are held). */
  kyc: z.strictObject({
    status: kycStatus,
    updatedAt: z.nullable(z.string()),
    attempts: z.number(),
    history: z.array(kycHistoryEntry),
  }),
  /**
   * The records made with the account's address (waitlist, messages, deletion requests,
   * registration requests), as stored, without the store's keys and secrets.
   */
  submissions: z.array(
    z.strictObject({
      kind: z.string(),
      createdAt: z.nullable(z.string()),
      fields: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type DataExport = z.infer<typeof dataExport>;

/** 200 with `Content-Disposition: attachment`; 5 a day per person (429 `rateLimited` past them). */
export const exportMyDataRoute = route('ExportMyData', {
  auth: 'user',
  response: dataExport,
  successStatus: 200,
  problems: ['accountNotFound', 'rateLimited'],
});
