import { createHash } from 'node:crypto';
import type { RateLimiter } from '../ports.ts';
import { normaliseEmail } from '../submissions/normalise.ts';

// Emails anyone can make us send to any address (issue 10, finding 8): without a per-recipient
// budget, our sender becomes a tool for flooding someone's inbox. ADR 0033 records the numbers.

export type PublicEmailKind = 'account-exists-email' | 'deletion-confirmation-email';

/** Per normalised address and kind of email. */
export const publicEmailLimit = { perRecipient: 3, windowSeconds: 24 * 60 * 60 } as const;

/** The limiter's subject: the rate-limit items must not hold the address itself. */
export function recipientKey(email: string): string {
  return createHash('sha256').update(normaliseEmail(email)).digest('hex');
}

/** True when this email may go out; each call that answers true spends one of the budget. */
export async function mayEmailRecipient(
  limiter: RateLimiter,
  kind: PublicEmailKind,
  to: string,
): Promise<boolean> {
  const result = await limiter.acquire(
    kind,
    recipientKey(to),
    publicEmailLimit.windowSeconds,
    publicEmailLimit.perRecipient,
  );
  return result.allowed;
}
