import type { ProblemName } from '#contracts/problem.ts';

// When a client meets each problem and what to do: the OpenAPI document's text for each row of
// ./problems.ts. Apart from the table so that only GET /api/openapi.json bundles it (every other
// function answers problems, none describes them).

export const problemDescriptions = {
  validation: 'The request is malformed or has invalid fields (see `errors`); nothing was written.',
  unauthorized: 'No valid access token. (API Gateway itself answers `{"message":"Unauthorized"}`.)',
  invalidSignature: 'The `Persona-Signature` header is missing, does not match the body, or is too old.',
  forbidden: 'The request acts for another account (a body `user_id` that is not the caller).',
  originNotVerified:
    "The request did not come through the site's CloudFront distribution (no valid origin secret); nothing ran.",
  adminRequired: 'Needs an access token whose namespaced `role` claim is `admin`.',
  emailNotVerified:
    "The access token's namespaced `email_verified` claim is not `true`. Verify the address, " +
    'then refresh the token (the claim is set at login and refresh) and try again. Nothing was written.',
  ownVerification:
    'An admin acting on their own verification (a decision or a new attempt): another admin decides. Nothing changed.',
  secondReviewerRequired:
    'Four-eyes (ADR 0080): the admin who proposed this decision tries to confirm it; a second, different admin must. Nothing changed.',
  organizationMismatch:
    "The route names an organization that is not the access token's `org_id` (a token for another " +
    'organization, or a sign-in without one): sign in through that organization (ADR 0083). Nothing was read or written.',
  organizationRoleRequired:
    'The token is for the organization, but its namespaced `org_roles` claim holds none of the roles the route allows.',
  organizationNotFound:
    'The organization named in the path is not one the product holds (registration creates them).',
  organizationMembershipEnded:
    'An `org_admin` removed the caller from their organization (ADR 0084): the token is still valid, but ' +
    "nothing of the organization is the caller's any more, so the session ends. Nothing was read or written.",
  organizationApprovalRequired:
    "The caller's own identity verification is not approved: an `org_admin` invites (ADR 0084), and a member " +
    'requests a service (ADR 0088), only once it is. Nothing was sent or stored.',
  alreadyMember: 'The invited address belongs to a member of the organization already. Nothing was sent.',
  invitationPending:
    'The invited address has a pending invitation to the organization: resend or revoke that one. Nothing was sent.',
  invitationNotFound:
    "No pending invitation of this id in the organization (accepted, revoked or never made); on joining, none for the caller's address.",
  memberNotFound: 'The user named in the path is not a member of the organization. Nothing changed.',
  lastOrganizationAdmin:
    'The change would leave the organization without an `org_admin` (also: an admin removing themselves). Nothing changed.',
  accountNotFound: 'The token is valid but its account no longer exists.',
  deletionRequestNotFound: 'The caller has no pending data-deletion request of this id. Nothing changed.',
  deletionNotCancellable:
    'The data-deletion request is being carried out (or has been): it can no longer be cancelled. Nothing changed.',
  verificationNotFound: 'The user named in the path has no verification.',
  consentRequired: 'Record the identity-verification consent (POST /api/consents) first.',
  consentNotActive:
    'There is no standing consent of that type to withdraw (never given, or withdrawn already); nothing was recorded.',
  consentDocumentChanged:
    'The consent text changed since it was shown: show the current version and ask again.',
  identityAlreadyVerified: "The caller's identity is already verified: there is nothing to start.",
  verificationClosed:
    'The verification was rejected and no new attempt is allowed; a reviewer may allow one (up to three attempts).',
  verificationNotSubmitted:
    'A decision needs a submitted inquiry: this verification has not started, or its inquiry was not finished. Nothing changed.',
  verificationNotRejected: 'Only a rejected verification can get a new attempt. Nothing changed.',
  attemptsExhausted: 'The person has used every verification attempt (three). Nothing changed.',
  concurrentChange: 'The record changed at the same time; sending the same request again is safe.',
  deletionConfirmationInvalid:
    'The confirmation link is unknown, was used already or has expired (one answer for all three); ' +
    'nothing changed. Ask for the deletion again to get a new link.',
  payloadTooLarge: "The request body exceeds the route's limit (64 KiB; Persona's webhook events 2 MiB).",
  unsupportedMediaType: 'The request body is not `application/json`.',
  rateLimited: 'Too many requests of this kind; `Retry-After` says how many seconds to wait.',
  internalError: 'An unexpected failure; `detail` holds a reference to quote to support.',
  verificationProviderUnavailable:
    'The identity-verification service (Persona) failed or answered unexpectedly.',
  identityProviderUnavailable:
    'The identity provider (Auth0) is not answering; every step is safe to send again.',
  consentLedgerBusy: "Too many concurrent writes to the caller's consent records; nothing was written.",
  serviceUnavailable:
    'The request was valid but could not be stored or queued for processing (the data store or the ' +
    'event bus is not answering); nothing was processed. Send it again after `Retry-After` seconds.',
} as const satisfies Record<ProblemName, string>;
