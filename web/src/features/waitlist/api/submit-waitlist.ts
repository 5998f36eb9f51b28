import { successResponse } from '#contracts/common.ts';
import { waitlistRequest } from '#contracts/waitlist.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { api } from '#web/lib/public-api.ts';

// Loaded when the visitor first reaches for the form, not with the page: the contract schema and
// the API client (zod) stay out of the home page's initial JS.

export type WaitlistOutcome =
  | { kind: 'joined' }
  /** A message for the email field, from the contract or from the API. */
  | { kind: 'invalid'; message: string }
  | { kind: 'failed' };

/** The contract's message for an unusable address, or undefined when it may be sent. */
export function validateEmail(email: string): string | undefined {
  const parsed = waitlistRequest.safeParse({ email });
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'Invalid email');
}

export async function joinWaitlist(email: string): Promise<WaitlistOutcome> {
  const parsed = waitlistRequest.safeParse({ email });
  if (!parsed.success)
    return { kind: 'invalid', message: parsed.error.issues[0]?.message ?? 'Invalid email' };
  try {
    await api.call('CreateWaitlistEntry', parsed.data, { response: successResponse });
    return { kind: 'joined' };
  } catch (error) {
    // A message about the address belongs next to the field; anything else is worth a retry.
    const message = error instanceof ApiError ? error.fieldError('email') : undefined;
    return message ? { kind: 'invalid', message } : { kind: 'failed' };
  }
}
