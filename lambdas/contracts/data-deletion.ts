import * as z from 'zod/mini';
import { emailAddress } from './common.ts';

// POST /api/data-deletion-requests (DESIGN section 3). Any address is accepted, personal ones
// included: a person may ask us to erase the Gmail address they once gave us.

export const dataDeletionRequest = z.strictObject({
  email: emailAddress,
  name: z.optional(z.string().check(z.trim(), z.maxLength(200, 'Name must be at most 200 characters'))),
  details: z.optional(
    z.string().check(z.trim(), z.maxLength(5000, 'Details must be at most 5000 characters')),
  ),
});
export type DataDeletionRequest = z.infer<typeof dataDeletionRequest>;

/** 30 days after receipt: the answer deadline of GDPR Art. 12(3). */
export const deletionDeadlineDays = 30;

export const dataDeletionAccepted = z.strictObject({
  requestId: z.string(),
  /** The date (YYYY-MM-DD, UTC) by which the request will be answered. */
  dueBy: z.iso.date(),
});
export type DataDeletionAccepted = z.infer<typeof dataDeletionAccepted>;
