// The English of every problem the API answers, beside the field messages of the contracts'
// `*Messages` objects (issue 28, ADR 0089): the titles of lambdas/http/problems.ts, the `detail`
// its rows set, the messages its errors carry, and the messages built from values. English is the
// API's own language; ./messages-de.ts gives each its German, and the HTTP layer answers in the
// language the request's `Accept-Language` negotiates. A message a client can read is named here
// (or in a `*Messages` object), so a missing German is a typecheck failure, not a surprise.

/** Every problem's `title` (RFC 9457 allows them localized; the type URI is what a client compares). */
export const problemTitles = [
  'Bad Request',
  'Unauthorized',
  'Forbidden',
  'Email Not Verified',
  'Not Found',
  'Conflict',
  'Consent Required',
  'Gone',
  'Payload Too Large',
  'Unsupported Media Type',
  'Too Many Requests',
  'Internal Server Error',
  'Bad Gateway',
  'Service Unavailable',
] as const;
export type ProblemTitle = (typeof problemTitles)[number];

/** Auth0 outages and rate limits outlast the adapter's own 10 s retry budget: ask for 30 s more. */
export const identityProviderRetrySeconds = 30;

/** A DynamoDB or EventBridge outage outlasts the SDK's retries (ADR 0039): a short wait, then again. */
export const serviceRetrySeconds = 5;

/** The `detail` of the problems whose row sets one (every 5xx: internals never leak). */
export const problemDetails = {
  internalError: 'Something went wrong on our side.',
  verificationProviderUnavailable:
    'The identity-verification service is not available right now. Try again in a moment.',
  identityProviderUnavailable: `Our sign-in service is busy. Please try again in ${identityProviderRetrySeconds} seconds.`,
  consentLedgerBusy: 'Your consent could not be saved right now. Please try again.',
  serviceUnavailable: `The request could not be processed right now. Please try again in ${serviceRetrySeconds} seconds.`,
} as const;
export type ProblemDetail = (typeof problemDetails)[keyof typeof problemDetails];

/** What the errors of lambdas/http and lambdas/domain say: the `detail` of the problems without one of their own. */
export const errorMessages = {
  // The HTTP layer (lambdas/http/errors.ts, http-handler.ts, the Persona webhook).
  invalidJson: 'The request body is not valid JSON.',
  notAnObject: 'The request body must be a JSON object.',
  invalidFields: 'The request has invalid fields.',
  invalidQuery: 'The query has invalid parameters.',
  invalidEventFields: 'The event has invalid fields.',
  invalidSignature: 'The Persona-Signature header is missing or invalid.',
  unauthorized: 'Authentication is required.',
  originNotVerified: 'Call the API through the site, not its origin.',
  adminRequired: 'This action needs the admin role.',
  unsupportedMediaType: 'Send the request body as application/json.',
  // Shared refusals (lambdas/domain/errors.ts).
  notOwnAccount: 'You can only act for your own account.',
  organizationMismatch:
    'Sign in through this organization: the token is for another organization, or for none.',
  organizationRoleRequired: 'Your role in this organization does not allow this.',
  organizationNotFound: 'No such organization.',
  emailNotVerified: 'Verify your email address first, then try again.',
  organizationMembershipEnded:
    'You are no longer a member of this organization. Ask its administrator to invite you again.',
  approvalRequiredToInvite: 'Your identity verification must be approved before you can invite colleagues.',
  approvalRequiredForService: 'Your identity verification must be approved before you can request a service.',
  serviceActionNotOffered: "This quick action is not one of your organization's dashboard.",
  alreadyMember: 'This person is already a member of your organization.',
  memberOfAnotherOrganization:
    'Your account belongs to another organization on the platform. Accept this invitation with another address.',
  invitationPending: 'This address already has a pending invitation. Resend or revoke it instead.',
  invitationNotFound: 'No pending invitation of this id.',
  noInvitationForAddress: 'There is no pending invitation to this organization for your address.',
  memberNotFound: 'This person is not a member of your organization.',
  lastOrganizationAdmin:
    'Your organization needs at least one administrator: make someone else an administrator first.',
  cannotRemoveYourself: 'You cannot remove yourself: another administrator can.',
  accountNotFound: 'Your account no longer exists.',
  deletionConfirmationInvalid:
    'This confirmation link does not work: it has expired or has already been used. Ask for the deletion again to get a new link.',
  deletionRequestNotFound: 'You have no pending data-deletion request with this id.',
  deletionNotCancellable:
    'Your data-deletion request is already being carried out and can no longer be cancelled.',
  // Identity verification (lambdas/domain/kyc/errors.ts).
  consentRequired: 'Record your identity-verification consent first',
  alreadyApproved: 'Your identity is already verified.',
  verificationClosed:
    'Your verification was not approved. A new attempt needs a reviewer to allow it: contact support.',
  verificationNotSubmitted: 'This verification has no submitted inquiry: there is nothing to decide yet.',
  ownVerification: 'Another administrator must decide on your own verification.',
  secondReviewerRequired: 'You proposed this decision: another administrator must confirm it.',
  verificationNotRejected: 'Only a rejected verification can get a new attempt.',
  verificationNotFound: 'This user has no verification.',
  concurrentChange: 'The verification changed at the same time. Try again.',
  // Consent (lambdas/domain/consent/errors.ts).
  consentRefused: 'Consent needs agreement to every statement.',
  consentNotActive:
    'There is no consent of this type to withdraw: it was never given or is withdrawn already.',
} as const;
export type ErrorMessage = (typeof errorMessages)[keyof typeof errorMessages];

/** The field messages of the HTTP layer itself, beside the contracts' own. */
export const fieldMessages = {
  /** zod/mini's own message, where a schema names none (it loads no locale). */
  invalidInput: 'Invalid input',
  /** A key a strict object does not know. */
  notAllowed: 'This field is not allowed.',
} as const;

/** A wait as the rate limits say it. */
export type WaitUnit = 'seconds' | 'minutes' | 'hours';

/**
 * The messages built from values. The English is always written with these, so ./messages-de.ts
 * recognises it (the text around the values) and writes the same values into the German twin.
 * Every value must be followed by text, or end the message.
 */
export const messageTemplates = {
  maxCharacters: (max: number) => `Must be at most ${max} characters`,
  payloadTooLarge: (bytes: number) => `The request body must not exceed ${bytes} bytes.`,
  internalError: (reference: string) =>
    `${problemDetails.internalError} Quote this reference if you contact us: ${reference}`,
  tooManyRequests: (amount: number, unit: WaitUnit) =>
    `Too many requests of this kind from your account. Please try again in ${amount} ${unit}.`,
  verificationEmailTooSoon: (seconds: number) =>
    `A verification email was sent less than a minute ago. Check your inbox, or try again in ${seconds} seconds.`,
  invitationsPerRecipient: (count: number, amount: number, unit: WaitUnit) =>
    `This address has received ${count} invitations in the last 24 hours. Please try again in ${amount} ${unit}.`,
  attemptsExhausted: (maxAttempts: number) =>
    `This person has used all ${maxAttempts} verification attempts.`,
  consentDocumentChanged: (currentVersion: string) =>
    `The consent text has changed (the current version is ${currentVersion}). Reload the page, read the current text and agree again.`,
  mustAgreeTo: (statement: string) => `You must agree to: ${statement}`,
} as const;
export type MessageTemplateName = keyof typeof messageTemplates;
