import * as z from 'zod/mini';
import { emailAddress } from './common.ts';
import { route } from './route.ts';

// POST /api/data-deletion-requests (docs/design.md section 3). Any address is accepted, personal ones
// included: a person may ask us to erase the Gmail address they once gave us. A request counts only
// once the address's owner confirms it through the emailed link (ADR 0033), or, for the signed-in
// person's own address, by their access token.

export const dataDeletionMessages = {
  detailsLong: 'Details must be at most 5000 characters',
  nameLong: 'Name must be at most 200 characters',
  tokenIncomplete: 'The confirmation link is incomplete',
} as const;

/** What the person adds to help find their data: both requests' optional free text. */
const deletionDetails = z.optional(
  z.string().check(z.trim(), z.maxLength(5000, dataDeletionMessages.detailsLong)),
);

export const dataDeletionRequest = z.strictObject({
  email: emailAddress,
  name: z.optional(z.string().check(z.trim(), z.maxLength(200, dataDeletionMessages.nameLong))),
  details: deletionDetails,
});
export type DataDeletionRequest = z.infer<typeof dataDeletionRequest>;

/**
 * The public request's answer: the same whatever the address (an account or not, emailed or over
 * the per-recipient limit), so it tells nobody anything about the address.
 */
export const dataDeletionPending = z.strictObject({
  requestId: z.string(),
  /** When the emailed confirmation link stops working (ISO 8601, UTC). */
  confirmBy: z.iso.datetime(),
  /**
   * docs/design.md's field, kept: the latest date (YYYY-MM-DD, UTC) by which the request will be
   * answered if it is confirmed in time (30 days from `confirmBy`; a confirmation sooner brings it forward).
   */
  dueBy: z.iso.date(),
});
export type DataDeletionPending = z.infer<typeof dataDeletionPending>;

/** `<requestId>.<secret>`: the id finds the request, the secret (hashed there) proves the inbox. */
export const deletionConfirmationToken = z
  .string(dataDeletionMessages.tokenIncomplete)
  .check(z.regex(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/, dataDeletionMessages.tokenIncomplete));

/** POST /api/data-deletion-requests/confirm: the token from the emailed link. */
export const dataDeletionConfirmation = z.strictObject({ token: deletionConfirmationToken });
export type DataDeletionConfirmation = z.infer<typeof dataDeletionConfirmation>;

/** POST /api/me/data-deletion-requests: the address is the caller's own, never sent. */
export const ownDataDeletionRequest = z.strictObject({
  details: deletionDetails,
});
export type OwnDataDeletionRequest = z.infer<typeof ownDataDeletionRequest>;

/** A confirmed request: the clock runs from the confirmation. */
export const dataDeletionAccepted = z.strictObject({
  requestId: z.string(),
  /** The date (YYYY-MM-DD, UTC) by which the request will be answered. */
  dueBy: z.iso.date(),
});
export type DataDeletionAccepted = z.infer<typeof dataDeletionAccepted>;

/** 202: the request waits for the owner's confirmation (the emailed link). */
export const createDataDeletionRequestRoute = route('CreateDataDeletionRequest', {
  auth: 'public',
  body: dataDeletionRequest,
  response: dataDeletionPending,
  successStatus: 202,
  problems: [],
});

export const confirmDataDeletionRequestRoute = route('ConfirmDataDeletionRequest', {
  auth: 'public',
  body: dataDeletionConfirmation,
  response: dataDeletionAccepted,
  successStatus: 200,
  problems: ['deletionConfirmationInvalid'],
});

/**
 * 202, and the same answer (the pending request's id and date) while one is pending: a second
 * request files nothing new (ADR 0076).
 */
export const createOwnDataDeletionRequestRoute = route('CreateOwnDataDeletionRequest', {
  auth: 'user',
  body: ownDataDeletionRequest,
  response: dataDeletionAccepted,
  successStatus: 202,
  problems: ['emailNotVerified', 'accountNotFound', 'rateLimited'],
});

export type { OwnDeletionRequestState } from './me.ts';

export const dataDeletionCancelled = z.strictObject({
  requestId: z.string(),
  status: z.literal('cancelled'),
});
export type DataDeletionCancelled = z.infer<typeof dataDeletionCancelled>;

/** 404 for a request that is not the caller's pending one; 409 once it is being carried out. */
export const cancelOwnDataDeletionRequestRoute = route('CancelOwnDataDeletionRequest', {
  auth: 'user',
  response: dataDeletionCancelled,
  successStatus: 200,
  problems: ['deletionRequestNotFound', 'deletionNotCancellable'],
});
