import * as z from 'zod/mini';

// Why Persona flagged a case, in brief (ADR 0082, amendment): the verification checks that failed,
// as the last applied webhook event of the person's current inquiry listed them in its `included`
// verifications. Names only: Persona's fixed check identifiers, never its reasons or personal data.
// Stored on the KYC state item, carried by PersonaEventReceived and listed on each queue item.

/** At most this many failed checks are kept (an inquiry fails a handful; this bounds the item). */
export const flaggedChecksMax = 10;

/** A Persona identifier (`selfie_id_comparison`, `government-id`): lower-case words, `_` or `-`. */
export const personaIdentifierPattern = /^[a-z0-9][a-z0-9_-]{0,99}$/;

const identifier = z.string().check(z.regex(personaIdentifierPattern));

/** One failed check: its verification's kind (`type` without `verification/`) and the check's name. */
export const flaggedCheck = z.object({
  /** `government-id`, `selfie`, `database`, ... */
  type: identifier,
  /** Persona's check name, e.g. `selfie_id_comparison`. */
  name: identifier,
});
export type FlaggedCheck = z.infer<typeof flaggedCheck>;

export const flaggedChecks = z.array(flaggedCheck).check(z.maxLength(flaggedChecksMax));
