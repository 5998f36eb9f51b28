import type * as z from 'zod/mini';
import type { FieldError, Problem } from '#contracts/problem.ts';
import { problemContentType } from '#contracts/problem.ts';
import type { HttpApiEvent, HttpApiResult, LambdaContext } from './api-gateway.ts';
import { type Caller, callerFrom, requireAdmin } from './auth.ts';
import { BadRequestError, HttpError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.ts';
import { logger } from './logger.ts';
import { flushMetrics } from './metrics.ts';

// The one wrapper every HTTP handler goes through: request id in the logs -> body size -> JSON
// parse -> schema -> the handler -> response shaping; typed errors mapped once to problem+json.

export const maxBodyBytes = 64 * 1024;

export interface HttpRequest<Body, Auth extends AuthOption = undefined> {
  body: Body;
  event: HttpApiEvent;
  requestId: string;
  /** The verified caller on `user` and `admin` routes. */
  caller: Auth extends 'user' | 'admin' ? Caller : undefined;
}

type AuthOption = 'user' | 'admin' | undefined;

export interface HttpResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type HttpLambda = (event: HttpApiEvent, context: LambdaContext) => Promise<HttpApiResult>;

interface Options<Schema extends z.ZodMiniType | undefined, Auth extends AuthOption> {
  /** Validates the JSON body; omit for routes without a body. */
  body?: Schema;
  /** Must match the route's `auth` in routes.ts: the caller comes from the verified token. */
  auth?: Auth;
}

type BodyOf<Schema> = Schema extends z.ZodMiniType ? z.infer<Schema> : undefined;

export function httpHandler<
  Schema extends z.ZodMiniType | undefined = undefined,
  Auth extends AuthOption = undefined,
>(
  options: Options<Schema, Auth>,
  handle: (request: HttpRequest<BodyOf<Schema>, Auth>) => Promise<HttpResponse>,
): HttpLambda {
  return async (event, context) => {
    const requestId = event.requestContext.requestId || context.awsRequestId;
    logger.appendKeys({ requestId, routeKey: event.routeKey });
    try {
      // Who before what: an unauthenticated caller learns nothing about the body's validity.
      const caller = options.auth ? callerFrom(event) : undefined;
      if (caller && options.auth === 'admin') requireAdmin(caller);
      if (caller) logger.appendKeys({ userId: caller.userId });
      const body = (options.body ? parseBody(event, options.body) : undefined) as BodyOf<Schema>;
      const response = await handle({ body, event, requestId, caller } as HttpRequest<BodyOf<Schema>, Auth>);
      return toResult(response);
    } catch (error) {
      return errorResult(error, requestId);
    } finally {
      flushMetrics();
      logger.removeKeys(['requestId', 'routeKey', 'userId']);
    }
  };
}

function parseBody(event: HttpApiEvent, schema: z.ZodMiniType): unknown {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.byteLength > maxBodyBytes) throw new PayloadTooLargeError(maxBodyBytes);
  const contentType = (event.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (bytes.byteLength > 0 && contentType !== 'application/json' && !contentType.endsWith('+json')) {
    throw new UnsupportedMediaTypeError();
  }
  let json: unknown;
  try {
    json = bytes.byteLength === 0 ? undefined : JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BadRequestError('The request body is not valid JSON.');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new BadRequestError('The request body must be a JSON object.');
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    throw new BadRequestError('The request has invalid fields.', fieldErrors(result.error.issues));
  }
  return result.data;
}

export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const prefix = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({ field: prefix ? `${prefix}.${key}` : key, message: 'This field is not allowed.' });
      }
      continue;
    }
    // Keep the first message per field: it is the one a person should fix first.
    if (errors.some((existing) => existing.field === prefix)) continue;
    errors.push({ field: prefix, message: issue.message });
  }
  return errors;
}

const baseHeaders = { 'cache-control': 'no-store' };

function toResult(response: HttpResponse): HttpApiResult {
  const headers: Record<string, string> = { ...baseHeaders, ...response.headers };
  if (response.body === undefined) return { statusCode: response.status, headers };
  return {
    statusCode: response.status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(response.body),
  };
}

export function problemResult(problem: Problem, headers: Record<string, string> = {}): HttpApiResult {
  return {
    statusCode: problem.status,
    headers: { ...baseHeaders, 'content-type': problemContentType, ...headers },
    body: JSON.stringify(problem),
  };
}

function errorResult(error: unknown, requestId: string): HttpApiResult {
  if (error instanceof HttpError) {
    if (error.status >= 500) logger.error('request failed', { error });
    return problemResult(
      {
        type: 'about:blank',
        title: error.title,
        status: error.status,
        ...(error.detail === undefined ? {} : { detail: error.detail }),
        ...(error.errors === undefined ? {} : { errors: error.errors }),
      },
      error.headers,
    );
  }
  // Never leak internals: the caller gets a reference, the log gets the error.
  logger.error('unhandled error', { error: error instanceof Error ? error : String(error) });
  return problemResult({
    type: 'about:blank',
    title: 'Internal Server Error',
    status: 500,
    detail: `Something went wrong on our side. Quote this reference if you contact us: ${requestId}`,
  });
}
