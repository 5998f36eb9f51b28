import * as z from 'zod/mini';

// RFC 9457 problem details, the only error shape the API returns. Every problem carries a `type`
// from `problemTypes` below, so a client tells one refusal from another by comparing `type` with
// these constants (never by parsing `title` or `detail`, which are for people).

export const fieldError = z.object({
  field: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldError>;

export const problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  detail: z.optional(z.string()),
  errors: z.optional(z.array(fieldError)),
});
export type Problem = z.infer<typeof problem>;

export const problemContentType = 'application/problem+json';

/**
 * The one base of every problem type URI. The URIs are identifiers (RFC 9457 section 3.1.1):
 * stable across stages, compared as strings, never fetched. GET /api/openapi.json documents each.
 */
export const problemTypeBase = 'https://platform.example/problems/';

/* @__NO_SIDE_EFFECTS__ */
const problemType = <const Slug extends string>(slug: Slug) => `${problemTypeBase}${slug}` as const;

/** Every problem type the API answers, by name. The HTTP layer maps each to its status and headers. */
export const problemTypes = {
  /** 400: the body, query or path is malformed or has invalid fields (`errors` names them). */
  validation: problemType('validation'),
  /** 401: no valid access token reached the handler. */
  unauthorized: problemType('unauthorized'),
  /** 401: the webhook's signature is missing, wrong or too old. */
  invalidSignature: problemType('invalid-signature'),
  /** 403: the request acts for another account (a body `user_id` that is not the caller). */
  forbidden: problemType('forbidden'),
  /** 403: the request bypassed the site's edge (CloudFront): call the API through the site's origin. */
  originNotVerified: problemType('origin-not-verified'),
  /** 403: the route needs the admin role. */
  adminRequired: problemType('admin-required'),
  /** 403: the caller's email address is not verified yet (verify it, then refresh the token). */
  emailNotVerified: problemType('email-not-verified'),
  /** 403: an admin acting on their own verification (another admin must decide). */
  ownVerification: problemType('own-verification'),
  /** 403: four-eyes (ADR 0080): the admin who proposed a decision cannot also confirm it. */
  secondReviewerRequired: problemType('second-reviewer-required'),
  /**
   * 403: an organization-scoped route called with a token for another organization, or for none:
   * sign in through the organization the request names (ADR 0083).
   */
  organizationMismatch: problemType('organization-mismatch'),
  /** 403: the caller's role in the organization does not allow this. */
  organizationRoleRequired: problemType('organization-role-required'),
  /** 404: the organization named in the path is not one the product holds. */
  organizationNotFound: problemType('organization-not-found'),
  /**
   * 401: the caller was removed from their organization (ADR 0084): the session ends, and sign-in
   * through the organization no longer works.
   */
  organizationMembershipEnded: problemType('organization-membership-ended'),
  /** 403: a member whose own identity verification is not approved yet cannot invite or request a service. */
  organizationApprovalRequired: problemType('organization-approval-required'),
  /** 409: the invited address is already a member of the organization. */
  alreadyMember: problemType('already-member'),
  /** 409: the invited address already has a pending invitation: resend or revoke that one. */
  invitationPending: problemType('invitation-pending'),
  /** 404: no pending invitation of this id (or, on joining, for the caller's address). */
  invitationNotFound: problemType('invitation-not-found'),
  /** 404: the user named in the path is not a member of the organization. */
  memberNotFound: problemType('member-not-found'),
  /** 409: the change would leave the organization without an `org_admin`. */
  lastOrganizationAdmin: problemType('last-organization-admin'),
  /** 404: the token is valid but its account no longer exists. */
  accountNotFound: problemType('account-not-found'),
  /** 404: the user named in the path has no verification. */
  verificationNotFound: problemType('verification-not-found'),
  /** 403: identity verification needs the caller's consent first (again, after a withdrawal). */
  consentRequired: problemType('consent-required'),
  /** 409: there is no standing consent of that type to withdraw (never given, or withdrawn already). */
  consentNotActive: problemType('consent-not-active'),
  /** 404: the caller has no pending data-deletion request of this id. */
  deletionRequestNotFound: problemType('deletion-request-not-found'),
  /** 409: the data-deletion request is being carried out (or was) and can no longer be cancelled. */
  deletionNotCancellable: problemType('deletion-not-cancellable'),
  /** 409: the consent text changed since the caller read it: show the current one and ask again. */
  consentDocumentChanged: problemType('consent-document-changed'),
  /** 409: the caller's identity is already verified. */
  identityAlreadyVerified: problemType('identity-already-verified'),
  /** 409: the verification was rejected and no new attempt is allowed (a reviewer may allow one). */
  verificationClosed: problemType('verification-closed'),
  /** 409: a decision needs a submitted inquiry, and this verification has none yet. */
  verificationNotSubmitted: problemType('verification-not-submitted'),
  /** 409: only a rejected verification can get a new attempt. */
  verificationNotRejected: problemType('verification-not-rejected'),
  /** 409: the person has used every verification attempt. */
  attemptsExhausted: problemType('attempts-exhausted'),
  /** 409: the same record changed at the same time; sending the request again is safe. */
  concurrentChange: problemType('concurrent-change'),
  /** 410: a data-deletion confirmation link that is unknown, already used or expired. */
  deletionConfirmationInvalid: problemType('deletion-confirmation-invalid'),
  /** 413: the body exceeds the route's limit (64 KiB; the Persona webhook 2 MiB). */
  payloadTooLarge: problemType('payload-too-large'),
  /** 415: the body is not JSON. */
  unsupportedMediaType: problemType('unsupported-media-type'),
  /** 429: too many requests of this kind; `Retry-After` says when to try again. */
  rateLimited: problemType('rate-limited'),
  /** 500: an unexpected failure; `detail` holds a reference to quote to support. */
  internalError: problemType('internal-error'),
  /** 502: the identity-verification service (Persona) did not answer as expected. */
  verificationProviderUnavailable: problemType('verification-provider-unavailable'),
  /** 503: the identity provider (Auth0) is not answering; `Retry-After` says when to try again. */
  identityProviderUnavailable: problemType('identity-provider-unavailable'),
  /** 503: too many concurrent writes to the caller's consent records; `Retry-After` says when. */
  consentLedgerBusy: problemType('consent-ledger-busy'),
  /** 503: the request could not be queued for processing (webhooks: the sender retries). */
  serviceUnavailable: problemType('service-unavailable'),
} as const;

export type ProblemName = keyof typeof problemTypes;
export type ProblemType = (typeof problemTypes)[ProblemName];
/** A problem type's last path segment, e.g. `email-not-verified`. */
export type ProblemSlug = ProblemType extends `${typeof problemTypeBase}${infer Slug}` ? Slug : never;

/**
 * A problem type's URI from its slug, checked against the table: what the web compares with, so a
 * page bundles the one URI it needs rather than the whole table.
 */
export const problemUri = <const Slug extends ProblemSlug>(slug: Slug) =>
  `${problemTypeBase}${slug}` as `${typeof problemTypeBase}${Slug}`;
