import type { FieldError } from '#contracts/problem.ts';

// Typed errors a handler or use case may throw. Only `HttpError`s reach the caller as they are;
// anything else becomes a generic 500 (lambdas/http/http-handler.ts).
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  constructor(detail: string, errors?: FieldError[]) {
    super(400, 'Bad Request', detail, errors);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(detail = 'Authentication is required.') {
    super(401, 'Unauthorized', detail);
  }
}

export class ForbiddenError extends HttpError {
  constructor(detail = 'You are not allowed to do this.') {
    super(403, 'Forbidden', detail);
  }
}

export class NotFoundError extends HttpError {
  constructor(detail = 'Not found.') {
    super(404, 'Not Found', detail);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limitBytes: number) {
    super(413, 'Payload Too Large', `The request body must not exceed ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor() {
    super(415, 'Unsupported Media Type', 'Send the request body as application/json.');
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds: number, detail = 'Too many requests. Try again later.') {
    super(429, 'Too Many Requests', detail, undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}
