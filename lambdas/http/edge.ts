import { hash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { problemTypes } from '#contracts/problem.ts';
import type { RouteDef } from '#lambdas/routes.ts';

// What the API and its edge (CloudFront with its WAF in AWS, the local web servers on loopback)
// agree on, defined once: the origin-secret header that proves a request came through our
// distribution, the header that carries the viewer's address, and the per-client-IP limit on the
// public write routes. Plain TypeScript: the CDK code, the Lambda wrapper and the local stack
// import it (ADR 0032).

/** The custom origin header CloudFront adds to every `/api/*` request; its value is the origin secret. */
export const originVerifyHeader = 'x-origin-verify';

/**
 * The header the API reads the viewer's IP from (`198.51.100.10`, `2001:db8::1`), written on every
 * `/api/*` request by the edge, overwriting any copy the viewer sent: in AWS by the `ViewerIp`
 * CloudFront Function (`viewerIpFunctionCode`) from `event.viewer.ip`, locally by the web servers
 * from the socket. Not CloudFront's own `CloudFront-Viewer-Address`: CloudFront adds that only
 * when an origin request policy names it, and the managed AllViewerExceptHostHeader policy the
 * API needs (every viewer header, not Host) names none (issue 25, ADR 0073).
 */
export const viewerIpHeader = 'x-viewer-ip';

/**
 * The viewer-request CloudFront Function of the `/api/*` behaviour (JavaScript runtime 2.0): sets
 * `viewerIpHeader` to the viewer's IP, replacing whatever the viewer sent under that name.
 */
export const viewerIpFunctionCode = `function handler(event) {
  var request = event.request;
  request.headers['${viewerIpHeader}'] = { value: event.viewer.ip };
  return request;
}
`;

/**
 * The origin secret as stored in Secrets Manager: CloudFront sends `current`; during a rotation
 * the API also accepts `previous` until CloudFront sends the new value everywhere.
 */
export interface OriginSecret {
  current: string;
  previous?: string;
}

/** The JSON key CloudFront's header value is read from (a CloudFormation dynamic reference). */
export const originSecretSendKey = 'current' satisfies keyof OriginSecret;

/** The values the API accepts, from the secret string; a malformed secret accepts nothing. */
export function acceptedOriginValues(secretString: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(secretString);
  } catch {
    return [];
  }
  if (parsed === null || typeof parsed !== 'object') return [];
  const { current, previous } = parsed as Record<string, unknown>;
  // Short values are refused outright: an empty or trivial secret would let anyone through.
  return [current, previous].filter(
    (value): value is string => typeof value === 'string' && value.length >= 16,
  );
}

// One-shot: half the cost of a Hash object per request.
const digest = (value: string) => hash('sha256', value, 'buffer');

/**
 * A check of the header against the accepted values, their digests taken once: a container builds
 * one per secret value, not one per request. Constant-time: the header's value is compared with
 * every accepted value, all of them every time.
 */
export function originVerifier(accepted: readonly string[]): (header: string | undefined) => boolean {
  const digests = accepted.map(digest);
  return (header) => {
    if (header === undefined) return false;
    const presented = digest(header);
    let match = false;
    for (const value of digests) match = timingSafeEqual(presented, value) || match;
    return match;
  };
}

/** The metric the HTTP wrapper counts, and the alarm watches, when a request came without the viewer's IP. */
export const viewerAddressMissingMetric = 'ViewerAddressMissing';

/** The viewer's IP from `viewerIpHeader`, or undefined when it is missing or not an IP address. */
export function viewerIpOf(header: string | undefined): string | undefined {
  const value = header?.trim();
  return value && isIP(value) !== 0 ? value : undefined;
}

/**
 * Per client IP, on the public write routes: at most `limit` requests in any `windowSeconds`,
 * then 429 until the rate falls. A person sends a handful of forms; a script mailing strangers
 * through registration or the deletion form sends hundreds. The global and per-route throttles
 * (routes.ts) still cap everyone together. WAF's rate-based rules take windows of 60, 120, 300 or
 * 600 seconds and limits from 10.
 */
export const perIpWriteLimit = { limit: 20, windowSeconds: 300 } as const;

/**
 * What a client over the per-IP limit gets, from WAF (a custom response of the rate-based rule) and
 * from the local gateway alike: 429 with Retry-After and the API's rate-limited problem type.
 */
export const perIpWriteLimitResponse = {
  status: 429,
  retryAfterSeconds: 60,
  contentType: 'application/json',
  body: JSON.stringify({
    type: problemTypes.rateLimited,
    title: 'Too Many Requests',
    status: 429,
    detail: 'Too many requests from your network. Please wait a few minutes and try again.',
  }),
} as const;

/** The routes the per-IP limit covers: public and POST (the Persona webhook is signed, not public). */
export function publicWriteRoutes(routes: readonly RouteDef[]): RouteDef[] {
  return routes.filter((route) => route.auth === 'public' && route.method === 'POST');
}

/**
 * What WAF does to the request's path before comparing it (ADR 0072), in this order: without them
 * `POST /api/%72egistrations` (which API Gateway decodes and routes) or `/API/Registrations` and
 * `/api/registrations/` (which it may not route, but which cost a request all the same) were never
 * counted. WAF's names; the local gateway applies the same (`perIpRuleCovers`).
 */
export const perIpPathTransformations = ['URL_DECODE', 'LOWERCASE'] as const;

/**
 * The paths the transformed path is compared with, exactly: each public POST route's path,
 * lowercased, with and without one trailing slash.
 */
export function perIpRulePaths(routes: readonly RouteDef[]): string[] {
  return publicWriteRoutes(routes).flatMap((route) => {
    const path = route.path.toLowerCase();
    return [path, `${path}/`];
  });
}

/** WAF's URL_DECODE: each `%XX` to its byte; anything else (a stray `%`) left as it is. */
const urlDecode = (value: string) =>
  value.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * The rule's scope-down as the local gateway applies it: a POST whose raw path (as sent, before any
 * routing), transformed as WAF transforms it, is one of `perIpRulePaths`.
 */
export function perIpRuleCovers(routes: readonly RouteDef[]): (method: string, rawPath: string) => boolean {
  const paths = new Set(perIpRulePaths(routes));
  return (method, rawPath) => method === 'POST' && paths.has(urlDecode(rawPath).toLowerCase());
}
