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
  // When a client meets it and what to do (the OpenAPI document's text) is in
  // ./problem-descriptions.ts: only the document reads it, so no other function bundles it.
}

// The waits of the 503s (`identityProviderRetrySeconds`, `serviceRetrySeconds`) live beside the
// details that name them, in #contracts/problem-messages.ts.

export const problemTable = {
  validation: {
    status: 400,
    title: 'Bad Request',
    errors: [InvalidRequestError, ConsentRefusedError, ServiceActionNotOfferedError],
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    errors: [UnauthorizedError],
    securityEvent: 'authentication_failed',
  },
  invalidSignature: {
    status: 401,
    title: 'Unauthorized',
    errors: [InvalidSignatureError],
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    errors: [NotOwnAccountError],
    securityEvent: 'authorization_failed',
  },
  originNotVerified: {
    status: 403,
    title: 'Forbidden',
    errors: [OriginNotVerifiedError],
    securityEvent: 'origin_unverified',
  },
  adminRequired: {
    status: 403,
    title: 'Forbidden',
    errors: [AdminRoleRequiredError],
    securityEvent: 'authorization_failed',
  },
  emailNotVerified: {
    status: 403,
    title: 'Email Not Verified',
    errors: [EmailNotVerifiedError],
    securityEvent: 'authorization_failed',
  },
  ownVerification: {
    status: 403,
    title: 'Forbidden',
    errors: [OwnVerificationError],
    securityEvent: 'authorization_failed',
  },
  secondReviewerRequired: {
    status: 403,
    title: 'Forbidden',
    errors: [SecondReviewerRequiredError],
    securityEvent: 'authorization_failed',
  },
  organizationMismatch: {
    status: 403,
    title: 'Forbidden',
    errors: [OrganizationMismatchError],
    securityEvent: 'authorization_failed',
  },
  organizationRoleRequired: {
    status: 403,
    title: 'Forbidden',
    errors: [OrganizationRoleRequiredError],
    securityEvent: 'authorization_failed',
  },
  organizationNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [OrganizationNotFoundError],
  },
  organizationMembershipEnded: {
    status: 401,
    title: 'Unauthorized',
    errors: [OrganizationMembershipEndedError],
    securityEvent: 'authorization_failed',
  },
  organizationApprovalRequired: {
    status: 403,
    title: 'Forbidden',
    errors: [OrganizationApprovalRequiredError],
  },
  alreadyMember: {
    status: 409,
    title: 'Conflict',
    errors: [AlreadyMemberError],
  },
  invitationPending: {
    status: 409,
    title: 'Conflict',
    errors: [InvitationPendingError],
  },
  invitationNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [InvitationNotFoundError],
  },
  memberNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [MemberNotFoundError],
  },
  lastOrganizationAdmin: {
    status: 409,
    title: 'Conflict',
    errors: [LastOrganizationAdminError],
  },
  accountNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [AccountNotFoundError],
  },
  deletionRequestNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [DeletionRequestNotFoundError],
  },
  deletionNotCancellable: {
    status: 409,
    title: 'Conflict',
    errors: [DeletionNotCancellableError],
  },
  verificationNotFound: {
    status: 404,
    title: 'Not Found',
    errors: [VerificationNotFoundError],
  },
  consentRequired: {
    status: 403,
    title: 'Consent Required',
    errors: [ConsentRequiredError],
  },
  consentNotActive: {
    status: 409,
    title: 'Conflict',
    errors: [ConsentNotActiveError],
  },
  consentDocumentChanged: {
    status: 409,
    title: 'Conflict',
    errors: [ConsentDocumentChangedError],
  },
  identityAlreadyVerified: {
    status: 409,
    title: 'Conflict',
    errors: [AlreadyApprovedError],
  },
  verificationClosed: {
    status: 409,
    title: 'Conflict',
    errors: [VerificationClosedError],
  },
  verificationNotSubmitted: {
    status: 409,
    title: 'Conflict',
    errors: [VerificationNotSubmittedError],
  },
  verificationNotRejected: {
    status: 409,
    title: 'Conflict',
    errors: [VerificationNotRejectedError],
  },
  attemptsExhausted: {
    status: 409,
    title: 'Conflict',
    errors: [AttemptsExhaustedError],
  },
  concurrentChange: {
    status: 409,
    title: 'Conflict',
    errors: [ConcurrentChangeError],
  },
  deletionConfirmationInvalid: {
    status: 410,
    title: 'Gone',
    errors: [DeletionConfirmationInvalidError],
  },
  payloadTooLarge: {
    status: 413,
    title: 'Payload Too Large',
    errors: [PayloadTooLargeError],
  },
  unsupportedMediaType: {
    status: 415,
    title: 'Unsupported Media Type',
    errors: [UnsupportedMediaTypeError],
  },
  rateLimited: {
    status: 429,
    title: 'Too Many Requests',
    errors: [RateLimitedError],
    retryAfter: (error) => (error as RateLimitedError).retryAfterSeconds,
    securityEvent: 'rate_limited',
  },
  internalError: {
    status: 500,
    title: 'Internal Server Error',
    // The fallback for every error this table does not name (see `problemFor`).
    errors: [],
    detail: problemDetails.internalError,
  },
  verificationProviderUnavailable: {
    status: 502,
    title: 'Bad Gateway',
    errors: [InquiryProviderError],
    detail: problemDetails.verificationProviderUnavailable,
  },
  identityProviderUnavailable: {
    status: 503,
    title: 'Service Unavailable',
    errors: [DirectoryUnavailableError],
    detail: problemDetails.identityProviderUnavailable,
    retryAfter: identityProviderRetrySeconds,
  },
  consentLedgerBusy: {
    status: 503,
    title: 'Service Unavailable',
    errors: [ConsentLedgerContentionError],
    detail: problemDetails.consentLedgerBusy,
    retryAfter: 1,
  },
  serviceUnavailable: {
    status: 503,
    title: 'Service Unavailable',
    // The data store or the bus failing for the adapter's whole retry budget: nothing was processed.
    errors: [NotQueuedError, StorageUnavailableError],
    detail: problemDetails.serviceUnavailable,
    retryAfter: serviceRetrySeconds,
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
