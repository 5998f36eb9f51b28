import { createHash } from 'node:crypto';
import type { RateLimiter } from '../ports.ts';
import { normaliseEmail } from '../submissions/normalise.ts';

// Emails anyone can make us send to any address (issue 10, finding 8): without a per-recipient
// budget, our sender becomes a tool for flooding someone's inbox. ADR 0033 records the numbers;
// ADR 0072 which spellings of one mailbox share a budget.

export type PublicEmailKind = 'account-exists-email' | 'deletion-confirmation-email';

/** Per mailbox (`recipientMailbox`) and kind of email. */
export const publicEmailLimit = { perRecipient: 3, windowSeconds: 24 * 60 * 60 } as const;

/** Gmail ignores dots in the local part, and googlemail.com is the same mailbox as gmail.com. */
const gmailDomains = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches, as far as the budget is concerned (ADR 0072): the whole address
 * lowercased, the `+tag` of the local part dropped (sub-addressing, which the big providers and
 * most mail servers deliver to the same inbox), and for Gmail the dots of the local part too.
 * Other providers' dots are left alone: `j.doe@` and `jdoe@` are different people there.
 */
export function recipientMailbox(email: string): string {
  const address = normaliseEmail(email);
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  // A local part that is all tag (`+x@`) stays as it is: there is no mailbox name to fold it into.
  if (plus > 0) local = local.slice(0, plus);
  if (gmailDomains.has(domain)) {
    const undotted = local.replaceAll('.', '');
    if (undotted !== '') local = undotted;
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** The limiter's subject: the rate-limit items must not hold the address itself. */
export function recipientKey(email: string): string {
  return createHash('sha256').update(recipientMailbox(email)).digest('hex');
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
