import { messageTemplates, type WaitUnit } from '#contracts/problem-messages.ts';
import { RateLimitedError } from './errors.ts';
import type { RateLimiter } from './ports.ts';

// Per-user limits on the signed-in write routes (ADR 0072). Each is far above what a person does
// (the journey needs one of each, a few with retries and reloads) and far below what a script
// with a valid token would send: every call past it is answered 429 before anything is written,
// sent or asked of Persona. Counted per token `sub` in the rate limiter (the submissions table's
// `RATE#<kind>#<sub>` items, gone by TTL a day after their window).

export const signedInWriteLimits = {
  /** POST /api/consents: a ledger record each, kept for years and never deletable. */
  consent: { limit: 20, windowSeconds: 24 * 60 * 60 },
  /** POST /api/me/kyc/inquiry: a Persona API call each (create or resume), on every /kyc/persona load. */
  'kyc-inquiry': { limit: 30, windowSeconds: 60 * 60 },
  /** POST /api/me/verification-email, on top of its one a minute: an email and an Auth0 job each. */
  'verification-email-daily': { limit: 10, windowSeconds: 24 * 60 * 60 },
  /** POST /api/me/data-deletion-requests: a request the operator must answer and a receipt email each. */
  'own-deletion-request': { limit: 3, windowSeconds: 24 * 60 * 60 },
  /**
   * GET /api/me/export: a read, but of everything held (five stores); 5 a day lets a person
   * download again after a failure while keeping a stolen token from mining it (GDPR Art. 12(5); ADR 0076).
   */
  'data-export': { limit: 5, windowSeconds: 24 * 60 * 60 },
  /**
   * The team page's invitations and resends (ADR 0084): an email from Auth0 each. An admin
   * bringing a whole department in sends dozens; a stolen token is held to this per day.
   */
  'organization-invitation': { limit: 50, windowSeconds: 24 * 60 * 60 },
  /**
   * The dashboards' service requests (ADR 0088): an operations email each. Six actions, one open
   * request each per organization; 20 a day leaves room for retries and a second look.
   */
  'service-request': { limit: 20, windowSeconds: 24 * 60 * 60 },
} as const satisfies Record<string, { limit: number; windowSeconds: number }>;

export type SignedInWriteKind = keyof typeof signedInWriteLimits;

/** A wait in seconds up to two minutes, in minutes up to two hours, then in hours. */
function waitOf(seconds: number): [amount: number, unit: WaitUnit] {
  if (seconds < 120) return [seconds, 'seconds'];
  if (seconds < 2 * 3600) return [Math.ceil(seconds / 60), 'minutes'];
  return [Math.ceil(seconds / 3600), 'hours'];
}

/** Spends one of the caller's `kind` budget, or throws `RateLimitedError` (429 with Retry-After). */
export async function spendSignedInWrite(
  limiter: RateLimiter,
  kind: SignedInWriteKind,
  userId: string,
): Promise<void> {
  const { limit, windowSeconds } = signedInWriteLimits[kind];
  const result = await limiter.acquire(kind, userId, windowSeconds, limit);
  if (!result.allowed) {
    throw new RateLimitedError(
      kind,
      result.retryAfterSeconds,
      messageTemplates.tooManyRequests(...waitOf(result.retryAfterSeconds)),
    );
  }
}

/**
 * `work` within the caller's `kind` budget: refused before it starts past the limit; a `work` that
 * throws gives its action back (what it allowed did not happen, as the verification email does).
 */
export async function withinSignedInLimit<T>(
  limiter: RateLimiter,
  kind: SignedInWriteKind,
  userId: string,
  work: () => Promise<T>,
): Promise<T> {
  await spendSignedInWrite(limiter, kind, userId);
  try {
    return await work();
  } catch (error) {
    await limiter.release(kind, userId).catch(() => undefined);
    throw error;
  }
}
