import type { FieldError } from '#contracts/problem.ts';
import { type ErrorMessage, errorMessages, messageTemplates } from '#contracts/problem-messages.ts';

// Refusals of the HTTP layer itself (request shape, authentication, role). Like the domain's
// errors they carry no status: lambdas/http/problems.ts maps every error class to its problem
// once. Anything it does not know becomes a generic 500.

/** The body, query or path is malformed or has invalid fields. */
export class InvalidRequestError extends Error {
  constructor(
    detail: ErrorMessage,
    readonly fieldErrors?: FieldError[],
  ) {
    super(detail);
    this.name = 'InvalidRequestError';
  }
}

/** No verified claims on a protected route (the authorizer should have refused already). */
export class UnauthorizedError extends Error {
  constructor(detail: ErrorMessage = errorMessages.unauthorized) {
    super(detail);
    this.name = 'UnauthorizedError';
  }
}

/** A signed request whose signature does not verify. */
export class InvalidSignatureError extends Error {
  constructor(detail: ErrorMessage) {
    super(detail);
    this.name = 'InvalidSignatureError';
  }
}

/** A request that did not come through the site's CloudFront distribution (no valid origin secret). */
export class OriginNotVerifiedError extends Error {
  constructor() {
    super(errorMessages.originNotVerified);
    this.name = 'OriginNotVerifiedError';
  }
}

/** An admin route called without the admin role. */
export class AdminRoleRequiredError extends Error {
  constructor() {
    super(errorMessages.adminRequired);
    this.name = 'AdminRoleRequiredError';
  }
}

export class PayloadTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(messageTemplates.payloadTooLarge(limitBytes));
    this.name = 'PayloadTooLargeError';
  }
}

export class UnsupportedMediaTypeError extends Error {
  constructor() {
    super(errorMessages.unsupportedMediaType);
    this.name = 'UnsupportedMediaTypeError';
  }
}

/** The request was accepted as valid but could not be queued (the sender should retry). */
export class NotQueuedError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.name = 'NotQueuedError';
  }
}
