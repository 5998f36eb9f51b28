import { type ApiLocale, defaultApiLocale } from '#contracts/locale.ts';
import { localizeMessage } from '#contracts/messages-de.ts';
import { type FieldError, type Problem, type ProblemName, problemTypes } from '#contracts/problem.ts';
import {
  identityProviderRetrySeconds,
  messageTemplates,
  type ProblemDetail,
  type ProblemTitle,
  problemDetails,
  serviceRetrySeconds,
} from '#contracts/problem-messages.ts';
import type { ApiRoute } from '#contracts/route.ts';
import {
  ConsentDocumentChangedError,
  ConsentLedgerContentionError,
  ConsentNotActiveError,
  ConsentRefusedError,
} from '#lambdas/domain/consent/errors.ts';
import {
  AccountNotFoundError,
  AlreadyMemberError,
  DeletionConfirmationInvalidError,
  DeletionNotCancellableError,
  DeletionRequestNotFoundError,
  DirectoryUnavailableError,
  EmailNotVerifiedError,
  InvitationNotFoundError,
  InvitationPendingError,
  LastOrganizationAdminError,
  MemberNotFoundError,
  NotOwnAccountError,
  OrganizationApprovalRequiredError,
  OrganizationMembershipEndedError,
  OrganizationMismatchError,
  OrganizationNotFoundError,
  OrganizationRoleRequiredError,
  RateLimitedError,
  ServiceActionNotOfferedError,
  StorageUnavailableError,
} from '#lambdas/domain/errors.ts';
import {
  AlreadyApprovedError,
  AttemptsExhaustedError,
  ConcurrentChangeError,
  ConsentRequiredError,
  InquiryProviderError,
  OwnVerificationError,
  SecondReviewerRequiredError,
  VerificationClosedError,
  VerificationNotFoundError,
  VerificationNotRejectedError,
  VerificationNotSubmittedError,
} from '#lambdas/domain/kyc/errors.ts';
import { logger, type SecurityEventName, securityEvent } from '#lambdas/runtime/logger.ts';
import {
  AdminRoleRequiredError,
  InvalidRequestError,
  InvalidSignatureError,
  NotQueuedError,
  OriginNotVerifiedError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from './errors.ts';

// The one table from errors to problems: each problem type's status, title, Retry-After and the
// error classes answered with it. Handlers and use cases only throw; `httpHandler` answers with
// `problemFor`, and the OpenAPI document lists each route's problems from the same table.

// biome-ignore lint/suspicious/noExplicitAny: a constructor of any signature, matched with instanceof.
type ErrorClass = abstract new (...args: any[]) => Error;

export interface ProblemRow {
  status: number;
  /** One of `problemTitles` (#contracts/problem-messages.ts), which have their German. */
  title: ProblemTitle;
  /** The error classes answered with this problem (`instanceof`, so subclasses match too). */
  errors: ErrorClass[];
  /**
   * What the caller reads. Omitted: the error's own message, which the domain writes for people.
   * Rows for 5xx always set it, so internals never leak. One of `problemDetails`
   * (#contracts/problem-messages.ts), which have their German.
   */
  detail?: ProblemDetail;
  /** `Retry-After` in seconds: one value per kind, or (rate limits) read from the error. */
  retryAfter?: number | ((error: Error) => number);
  /** Logged as a security event, which the security alarm counts. */
  securityEvent?: SecurityEventName;
  /** When a client meets it and what to do: the OpenAPI document's text. */
  description: string;
}

// The waits of the 503s (`identityProviderRetrySeconds`, `serviceRetrySeconds`) live beside the
// details that name them, in #contracts/problem-messages.ts.

export const problemTable = {
  validation: {
    status: 400,
    title: 'Bad Request',
    errors: [InvalidRequestError, ConsentRefusedError, ServiceActionNotOfferedError],
    description: 'The request is malformed or has invalid fields (see `errors`); nothing was written.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    errors: [UnauthorizedError],
    securityEvent: 'authentication_failed',
    description: 'No valid access token. (API Gateway itself answers `{"message":"Unauthorized"}`.)',
  },
  invalidSignature: {
    status: 401,
    title: 'Unauthorized',
    errors: [InvalidSignatureError],
    description: 'The `Persona-Signature` header is missing, does not match the body, or is too old.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    errors: [NotOwnAccountError],
    securityEvent: 'authorization_failed',
    description: 'The request acts for another account (a body `user_id` that is not the caller).',
  },
  originNotVerified: {
    status: 403,
    title: 'Forbidden',
    errors: [OriginNotVerifiedError],
    securityEvent: 'origin_unverified',
    description:
      "The request did not come through the site's CloudFront distribution (no valid origin secret); nothing ran.",
  },
  adminRequired: {
    status: 403,
    title: 'Forbidden',
    errors: [AdminRoleRequiredError],
    securityEvent: 'authorization_failed',
    description: 'Needs an access token whose namespaced `role` claim is `admin`.',
  },
  emailNotVerified: {
    status: 403,
    title: 'Email Not Verified',
    errors: [EmailNotVerifiedError],
    securityEvent: 'authorization_failed',
    description:
      "The access token's namespaced `email_verified` claim is not `true`. Verify the address, " +
      'then refresh the token (the claim is set at login and refresh) and try again. Nothing was written.',
  },
  ownVerification: {
    status: 403,
    title: 'Forbidden',
    errors: [OwnVerificationError],
    securityEvent: 'authorization_failed',
    description:
      'An admin acting on their own verification (a decision or a new attempt): another admin decides. Nothing changed.',
  },
  secondReviewerRequired: {
    status: 403,
    title: 'Forbidden',
    errors: [SecondReviewerRequiredError],
    securityEvent: 'authorization_failed',
    description:
      'Four-eyes (ADR 0080): the admin who proposed this decision tries to confirm it; a second, different admin must. Nothing changed.',
  },
  organizationMismatch: {
    status: 403,
    title: 'Forbidden',
    errors: [OrganizationMismatchError],
    securityEvent: 'authorization_failed',
    description:
      "The route names an organization that is not the access token's `org_id` (a token for another " +
      'organization, or a sign-in without one): sign in through that organization (ADR 0083). Nothing was read or written.',
  },
  organizationRoleRequired: {
    status: 403,
    title: 'Forbidden',
    errors: [OrganizationRoleRequiredError],
    securityEvent: 'authorization_failed',
    description:
      'The token is for the organization, but its namespaced `org_roles` claim holds none of the roles the route allows.',
  },
  organizationNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [OrganizationNotFoundError],
    description:
      'The organization named in the path is not one the product holds (registration creates them).',
  },
  organizationMembershipEnded: {
    status: 401,
    title: 'Unauthorized',
    errors: [OrganizationMembershipEndedError],
    securityEvent: 'authorization_failed',
    description:
      'An `org_admin` removed the caller from their organization (ADR 0084): the token is still valid, but ' +
      "nothing of the organization is the caller's any more, so the session ends. Nothing was read or written.",
  },
  organizationApprovalRequired: {
    status: 403,
    title: 'Forbidden',
    errors: [OrganizationApprovalRequiredError],
    description:
      "The caller's own identity verification is not approved: an `org_admin` invites (ADR 0084), and a member " +
      'requests a service (ADR 0088), only once it is. Nothing was sent or stored.',
  },
  alreadyMember: {
    status: 409,
    title: 'Conflict',
    errors: [AlreadyMemberError],
    description: 'The invited address belongs to a member of the organization already. Nothing was sent.',
  },
  invitationPending: {
    status: 409,
    title: 'Conflict',
    errors: [InvitationPendingError],
    description:
      'The invited address has a pending invitation to the organization: resend or revoke that one. Nothing was sent.',
  },
  invitationNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [InvitationNotFoundError],
    description:
      "No pending invitation of this id in the organization (accepted, revoked or never made); on joining, none for the caller's address.",
  },
  memberNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [MemberNotFoundError],
    description: 'The user named in the path is not a member of the organization. Nothing changed.',
  },
  lastOrganizationAdmin: {
    status: 409,
    title: 'Conflict',
    errors: [LastOrganizationAdminError],
    description:
      'The change would leave the organization without an `org_admin` (also: an admin removing themselves). Nothing changed.',
  },
  accountNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [AccountNotFoundError],
    description: 'The token is valid but its account no longer exists.',
  },
  deletionRequestNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [DeletionRequestNotFoundError],
    description: 'The caller has no pending data-deletion request of this id. Nothing changed.',
  },
  deletionNotCancellable: {
    status: 409,
    title: 'Conflict',
    errors: [DeletionNotCancellableError],
    description:
      'The data-deletion request is being carried out (or has been): it can no longer be cancelled. Nothing changed.',
  },
  verificationNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [VerificationNotFoundError],
    description: 'The user named in the path has no verification.',
  },
  consentRequired: {
    status: 403,
    title: 'Consent Required',
    errors: [ConsentRequiredError],
    description: 'Record the identity-verification consent (POST /api/consents) first.',
  },
  consentNotActive: {
    status: 409,
    title: 'Conflict',
    errors: [ConsentNotActiveError],
    description:
      'There is no standing consent of that type to withdraw (never given, or withdrawn already); nothing was recorded.',
  },
  consentDocumentChanged: {
    status: 409,
    title: 'Conflict',
    errors: [ConsentDocumentChangedError],
    description: 'The consent text changed since it was shown: show the current version and ask again.',
  },
  identityAlreadyVerified: {
    status: 409,
    title: 'Conflict',
    errors: [AlreadyApprovedError],
    description: "The caller's identity is already verified: there is nothing to start.",
  },
  verificationClosed: {
    status: 409,
    title: 'Conflict',
    errors: [VerificationClosedError],
    description:
      'The verification was rejected and no new attempt is allowed; a reviewer may allow one (up to three attempts).',
  },
  verificationNotSubmitted: {
    status: 409,
    title: 'Conflict',
    errors: [VerificationNotSubmittedError],
    description:
      'A decision needs a submitted inquiry: this verification has not started, or its inquiry was not finished. Nothing changed.',
  },
  verificationNotRejected: {
    status: 409,
    title: 'Conflict',
    errors: [VerificationNotRejectedError],
    description: 'Only a rejected verification can get a new attempt. Nothing changed.',
  },
  attemptsExhausted: {
    status: 409,
    title: 'Conflict',
    errors: [AttemptsExhaustedError],
    description: 'The person has used every verification attempt (three). Nothing changed.',
  },
  concurrentChange: {
    status: 409,
    title: 'Conflict',
    errors: [ConcurrentChangeError],
    description: 'The record changed at the same time; sending the same request again is safe.',
  },
  deletionConfirmationInvalid: {
    status: 410,
    title: 'Gone',
    errors: [DeletionConfirmationInvalidError],
    description:
      'The confirmation link is unknown, was used already or has expired (one answer for all three); ' +
      'nothing changed. Ask for the deletion again to get a new link.',
  },
  payloadTooLarge: {
    status: 413,
    title: 'Payload Too Large',
    errors: [PayloadTooLargeError],
    description: "The request body exceeds the route's limit (64 KiB; Persona's webhook events 2 MiB).",
  },
  unsupportedMediaType: {
    status: 415,
    title: 'Unsupported Media Type',
    errors: [UnsupportedMediaTypeError],
    description: 'The request body is not `application/json`.',
  },
  rateLimited: {
    status: 429,
    title: 'Too Many Requests',
    errors: [RateLimitedError],
    retryAfter: (error) => (error as RateLimitedError).retryAfterSeconds,
    securityEvent: 'rate_limited',
    description: 'Too many requests of this kind; `Retry-After` says how many seconds to wait.',
  },
  internalError: {
    status: 500,
    title: 'Internal Server Error',
    // The fallback for every error this table does not name (see `problemFor`).
    errors: [],
    detail: problemDetails.internalError,
    description: 'An unexpected failure; `detail` holds a reference to quote to support.',
  },
  verificationProviderUnavailable: {
    status: 502,
    title: 'Bad Gateway',
    errors: [InquiryProviderError],
    detail: problemDetails.verificationProviderUnavailable,
    description: 'The identity-verification service (Persona) failed or answered unexpectedly.',
  },
  identityProviderUnavailable: {
    status: 503,
    title: 'Service Unavailable',
    errors: [DirectoryUnavailableError],
    detail: problemDetails.identityProviderUnavailable,
    retryAfter: identityProviderRetrySeconds,
    description: 'The identity provider (Auth0) is not answering; every step is safe to send again.',
  },
  consentLedgerBusy: {
    status: 503,
    title: 'Service Unavailable',
    errors: [ConsentLedgerContentionError],
    detail: problemDetails.consentLedgerBusy,
    retryAfter: 1,
    description: "Too many concurrent writes to the caller's consent records; nothing was written.",
  },
  serviceUnavailable: {
    status: 503,
    title: 'Service Unavailable',
    // The data store or the bus failing for the adapter's whole retry budget: nothing was processed.
    errors: [NotQueuedError, StorageUnavailableError],
    detail: problemDetails.serviceUnavailable,
    retryAfter: serviceRetrySeconds,
    description:
      'The request was valid but could not be stored or queued for processing (the data store or the ' +
      'event bus is not answering); nothing was processed. Send it again after `Retry-After` seconds.',
  },
} as const satisfies Record<ProblemName, ProblemRow>;

const problemNames = Object.keys(problemTable) as ProblemName[];

/** The problem name an error is answered with (`internalError` for anything the table does not name). */
export function problemNameOf(error: unknown): ProblemName {
  for (const name of problemNames) {
    const row: ProblemRow = problemTable[name];
    if (row.errors.some((errorClass) => error instanceof errorClass)) return name;
  }
  return 'internalError';
}

export interface ProblemAnswer {
  name: ProblemName;
  problem: Problem;
  headers: Record<string, string>;
  /** The language the problem's texts are in (`Content-Language`). */
  language: ApiLocale;
}

/**
 * The problem+json body and headers for an error, with its logging; its `title`, `detail` and
 * field messages in `locale` (the request's negotiated language; English without one).
 */
export function problemFor(
  error: unknown,
  context: { requestId: string; userId?: string | undefined; locale?: ApiLocale | undefined },
): ProblemAnswer {
  const name = problemNameOf(error);
  const row: ProblemRow = problemTable[name];
  const headers: Record<string, string> = {};
  if (row.retryAfter !== undefined && error instanceof Error) {
    const seconds = typeof row.retryAfter === 'number' ? row.retryAfter : row.retryAfter(error);
    headers['retry-after'] = String(Math.max(1, Math.ceil(seconds)));
  }
  let detail = row.detail ?? (error instanceof Error ? error.message : undefined);
  if (name === 'internalError') {
    // Never leak internals: the caller gets a reference, the log gets the error.
    logger.error('unhandled error', { error: error instanceof Error ? error : String(error) });
    detail = messageTemplates.internalError(context.requestId);
  } else if (row.status >= 500) {
    logger.error('request failed', { problem: name, error: error instanceof Error ? error : String(error) });
  }
  if (row.securityEvent) {
    securityEvent(row.securityEvent, {
      reason: name,
      ...(context.userId ? { userId: context.userId } : {}),
    });
  }
  const fieldErrors: FieldError[] | undefined =
    error instanceof InvalidRequestError || error instanceof ConsentRefusedError
      ? error.fieldErrors
      : undefined;
  const problem: Problem = {
    type: problemTypes[name],
    title: row.title,
    status: row.status,
    ...(detail === undefined ? {} : { detail }),
    ...(fieldErrors === undefined ? {} : { errors: fieldErrors }),
  };
  return { name, ...localizedProblem(problem, context.locale ?? defaultApiLocale), headers };
}

/**
 * The problem's texts for people (`title`, `detail`, each field's `message`) in `locale`; the
 * type, status and fields as they are. Never throws: anything that fails stays English.
 */
export function localizedProblem(
  problem: Problem,
  locale: ApiLocale,
): { problem: Problem; language: ApiLocale } {
  if (locale === defaultApiLocale) return { problem, language: locale };
  try {
    const { title, detail, errors } = problem;
    return {
      problem: {
        ...problem,
        title: localizeMessage(title, locale),
        ...(detail === undefined ? {} : { detail: localizeMessage(detail, locale) }),
        ...(errors === undefined
          ? {}
          : {
              errors: errors.map((error) => ({ ...error, message: localizeMessage(error.message, locale) })),
            }),
      },
      language: locale,
    };
  } catch {
    return { problem, language: defaultApiLocale };
  }
}

/**
 * Every problem a route can answer, from its contract row (lambdas/contracts/api.ts): the ones its
 * shape implies (a body or a query, a token, the admin role) plus the ones its handler and use
 * case name in `problems`. The OpenAPI document lists exactly these; a test drives each handler
 * into its failures and checks that every answer is among them.
 */
export function routeProblemNames(
  route: Pick<ApiRoute, 'auth' | 'problems' | 'body' | 'query'>,
): ProblemName[] {
  const names = new Set<ProblemName>(route.problems);
  const body = route.body !== undefined;
  // A signed route reads the raw bytes itself: no content-type check, but the same size limit.
  const wrapperParsesBody = body && route.auth !== 'persona-signature';
  if (body || route.query !== undefined) names.add('validation');
  if (body) names.add('payloadTooLarge');
  if (wrapperParsesBody) names.add('unsupportedMediaType');
  if (route.auth === 'user' || route.auth === 'admin') names.add('unauthorized');
  if (route.auth === 'admin') names.add('adminRequired');
  // Every route refuses a request that bypassed the edge (httpHandler checks it first).
  names.add('originNotVerified');
  names.add('internalError');
  // In the table's order (by status), so the document reads the same every time.
  return problemNames.filter((name) => names.has(name));
}
