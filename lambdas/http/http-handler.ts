import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { type ApiLocale, defaultApiLocale, negotiateLocale } from '#contracts/locale.ts';
import type { FieldError, Problem } from '#contracts/problem.ts';
import { problemContentType } from '#contracts/problem.ts';
import { errorMessages, fieldMessages } from '#contracts/problem-messages.ts';
import { type ApiRoute, maxBodyBytesOf, type RouteId, routeKeyOf } from '#contracts/route.ts';
import { getSecret } from '#lambdas/adapters/secrets.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric, flushMetrics } from '#lambdas/runtime/metrics.ts';
import type { HttpApiEvent, HttpApiResult } from './api-gateway.ts';
import { authenticate, type Caller, requireAdmin } from './auth.ts';
import {
  acceptedOriginValues,
  originVerifier,
  originVerifyHeader,
  viewerAddressMissingMetric,
  viewerIpHeader,
  viewerIpOf,
} from './edge.ts';
import {
  InvalidRequestError,
  OriginNotVerifiedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from './errors.ts';
import { problemFor } from './problems.ts';

// The one wrapper every HTTP handler goes through: request id in the logs -> the origin secret
// (the request came through CloudFront, ADR 0032) -> auth (from the route's contract row) -> body
// size (the route's limit) -> JSON parse -> the body and query schemas (from the contract row) ->
// the handler -> response shaping; every thrown error answered once, from the table in problems.ts.

export interface HttpRequest<Body, Query, Auth> {
  body: Body;
  /** The parsed query string, on routes whose contract has a query schema. */
  query: Query;
  event: HttpApiEvent;
  requestId: string;
  /** The verified caller on `user` and `admin` routes. */
  caller: Auth extends 'user' | 'admin' ? Caller : undefined;
  /**
   * The viewer's IP as CloudFront saw it (`x-viewer-ip`, which the edge writes; trusted because
   * the origin secret verified); API Gateway's `sourceIp` is CloudFront's edge, used (and logged
   * and counted) only when the header is missing. Raw: minimise before storing.
   */
  viewerIp: string;
}

export interface HttpResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type HttpLambda = ((event: HttpApiEvent, context: Context) => Promise<HttpApiResult>) & {
  /** The route the handler serves (and takes its auth from). */
  readonly routeId?: RouteId;
};

interface Options<Row extends ApiRoute> {
  /**
   * The contract row of the route this handler serves (`createRegistrationRoute` of
   * lambdas/contracts/registration.ts): its `auth` decides who may call it, its `body` and `query`
   * schemas what reaches the handler, its `maxBodyBytes` how large a body may be.
   */
  route: Row;
}

/** What a row's schema under `Key` yields once parsed (`undefined`: the row has none). */
type Parsed<Row, Key extends 'body' | 'query'> = Row extends {
  readonly [K in Key]: infer Schema extends z.ZodMiniType;
}
  ? z.output<Schema>
  : undefined;

/** The handler's request for a route: the parsed body (none on a signed route: raw bytes first). */
type RequestOf<Row extends ApiRoute> = HttpRequest<
  Row['auth'] extends 'persona-signature' ? undefined : Parsed<Row, 'body'>,
  Parsed<Row, 'query'>,
  Row['auth']
>;

export function httpHandler<const Row extends ApiRoute>(
  options: Options<Row>,
  handle: (request: RequestOf<Row>) => Promise<HttpResponse>,
): HttpLambda {
  const { route } = options;
  // Fails the cold start, loudly, rather than serving a row whose route key is unknown or differs.
  if (routeKeyOf(route.id as RouteId) !== `${route.method} ${route.path}`)
    throw new Error(`Route ${route.id} does not match its route key in lambdas/contracts/route-keys.ts`);
  const { auth } = route;
  const maxBodyBytes = maxBodyBytesOf(route);
  // A signed route's handler verifies the raw bytes before anything parses them.
  const bodySchema = auth === 'persona-signature' ? undefined : route.body;
  const querySchema = route.query;
  const lambda = async (event: HttpApiEvent, context: Context): Promise<HttpApiResult> => {
    const requestId = event.requestContext.requestId || context.awsRequestId;
    // cold_start and the function's own request id (function_request_id), beside API Gateway's.
    logger.addContext(context);
    logger.appendKeys({ requestId, routeKey: event.routeKey });
    let caller: Caller | undefined;
    try {
      // Through the edge before anything else: a direct call to the API origin skips CloudFront's
      // headers, its WAF and its per-IP limits, so nothing runs for it.
      const viewerIp = await verifiedViewerIp(event);
      // Who before what: an unauthenticated caller learns nothing about the body's validity.
      if (auth === 'user' || auth === 'admin') {
        caller = await authenticate(event);
        logger.appendKeys({ userId: caller.userId });
        if (auth === 'admin') requireAdmin(caller);
      }
      const bytes = bodyBytes(event);
      if (bytes.byteLength > maxBodyBytes) throw new PayloadTooLargeError(maxBodyBytes);
      const body = bodySchema ? parseBody(event, bytes, bodySchema) : undefined;
      const query = querySchema ? parseQuery(event, querySchema) : undefined;
      const response = await handle({ body, query, event, requestId, caller, viewerIp } as RequestOf<Row>);
      return toResult(response);
    } catch (error) {
      const { problem, headers, language } = problemFor(error, {
        requestId,
        userId: caller?.userId,
        locale: requestLocale(event),
      });
      return problemResult(problem, { ...headers, 'content-language': language });
    } finally {
      flushMetrics();
      logger.removeKeys(['requestId', 'routeKey', 'userId']);
    }
  };
  return Object.assign(lambda, { routeId: route.id as RouteId });
}

/**
 * The check for the origin secret's current value. Parsing the secret and digesting its values
 * once per value, not per request, is most of what verifying a request costs; a rotated value (a
 * new string from the secrets cache) builds a new check.
 */
let originCheck: { secret: string; verify: (header: string | undefined) => boolean } | undefined;

/** The viewer's IP of a request that came through CloudFront; throws for any other request. */
async function verifiedViewerIp(event: HttpApiEvent): Promise<string> {
  const secret = await getSecret('originVerify');
  if (originCheck?.secret !== secret)
    originCheck = { secret, verify: originVerifier(acceptedOriginValues(secret)) };
  if (!originCheck.verify(event.headers[originVerifyHeader])) throw new OriginNotVerifiedError();
  const viewerIp = viewerIpOf(event.headers[viewerIpHeader]);
  if (viewerIp) return viewerIp;
  // The edge writes it on every request: without it the ledger and the per-IP limits would record
  // CloudFront's address. Said and counted (the ViewerAddressMissing alarm), never silent.
  const { sourceIp } = event.requestContext.http;
  logger.warn('viewer address missing', { viewerAddressMissing: true, sourceIp });
  countMetric(viewerAddressMissingMetric);
  return sourceIp;
}

/** The request body as sent (API Gateway base64-encodes what it does not take for text). */
export function bodyBytes(event: HttpApiEvent): Buffer {
  const raw = event.body ?? '';
  return event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
}

function parseBody(event: HttpApiEvent, bytes: Buffer, schema: z.ZodMiniType): unknown {
  const contentType = (event.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (bytes.byteLength > 0 && contentType !== 'application/json' && !contentType.endsWith('+json')) {
    throw new UnsupportedMediaTypeError();
  }
  let json: unknown;
  try {
    json = bytes.byteLength === 0 ? undefined : JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidRequestError(errorMessages.invalidJson);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new InvalidRequestError(errorMessages.notAnObject);
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    throw new InvalidRequestError(errorMessages.invalidFields, fieldErrors(result.error.issues));
  }
  return result.data;
}

function parseQuery(event: HttpApiEvent, schema: z.ZodMiniType): unknown {
  const result = schema.safeParse({ ...event.queryStringParameters });
  if (!result.success) {
    throw new InvalidRequestError(errorMessages.invalidQuery, fieldErrors(result.error.issues));
  }
  return result.data;
}

export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const prefix = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({ field: prefix ? `${prefix}.${key}` : key, message: fieldMessages.notAllowed });
      }
      continue;
    }
    // Keep the first message per field: it is the one a person should fix first.
    if (errors.some((existing) => existing.field === prefix)) continue;
    errors.push({ field: prefix, message: issue.message });
  }
  return errors;
}

/**
 * The language the request asks its problems in (issue 28): the web sends `Accept-Language` on
 * every call (HTTP API v2 lower-cases header names). English when it names neither of ours.
 */
function requestLocale(event: HttpApiEvent): ApiLocale {
  try {
    return negotiateLocale(event.headers?.['accept-language']);
  } catch {
    return defaultApiLocale;
  }
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

function problemResult(problem: Problem, headers: Record<string, string> = {}): HttpApiResult {
  return {
    statusCode: problem.status,
    headers: { ...baseHeaders, 'content-type': problemContentType, ...headers },
    body: JSON.stringify(problem),
  };
}
