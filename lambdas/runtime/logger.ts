import { Logger } from '@aws-lambda-powertools/logger';
import { functionEnv } from '#lambdas/environment.ts';

// Each match may start only where a run of its characters starts (the lookbehinds): otherwise a
// long run without `@` or a second dot is rescanned from every position, quadratic (ADR 0071).
const emailPattern =
  /(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;
const jwtPattern = /(?<![\w-])eyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const bearerPattern = /(Bearer\s+)[^\s"']+/gi;

/**
 * Defence in depth: whatever a log line carries (an SDK error quoting an address, a stack trace),
 * email addresses are masked and tokens removed before it is written.
 */
export function redact(text: string): string {
  return text
    .replace(jwtPattern, '[redacted-token]')
    .replace(bearerPattern, '$1[redacted]')
    .replace(emailPattern, '$1***@$2');
}

// One logger per container; handlers append the request id per invocation.
export const logger = new Logger({
  serviceName: process.env[functionEnv.powertoolsServiceName] ?? 'platform-api',
  jsonReplacerFn: (_key, value) => (typeof value === 'string' ? redact(value) : value),
});

export type SecurityEventName =
  | 'authentication_failed'
  | 'authorization_failed'
  | 'signature_failed'
  /** A request without the origin secret: someone calling the API origin past CloudFront and its WAF. */
  | 'origin_unverified'
  | 'rate_limited'
  | 'honeypot_triggered'
  /** A signed webhook for an inquiry this backend did not create, or with a mismatched reference id. */
  | 'webhook_ignored';

/**
 * Every authentication, authorization and signature failure is logged with `security: true`,
 * so a metric filter and an alarm can count them. Never pass tokens, secrets or full PII.
 */
export function securityEvent(name: SecurityEventName, details: Record<string, unknown> = {}): void {
  logger.warn(`security event: ${name}`, { security: true, securityEvent: name, ...details });
}

/** `ada@example.com` -> `a***@example.com`: enough to correlate, not enough to identify. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
