import { type ConsentCreated, type ConsentRequest, consentCreated } from '#contracts/consent.ts';
import { problemUri } from '#contracts/problem.ts';
import { type ApiClient, ApiError } from '#web/lib/api-client.ts';

// The consent call, apart from the KYC feature's calls so that /kyc/persona does not load the
// consent contract and its documents; here in lib/ because two features open the consent dialog
// (web/src/components/consent-dialog.tsx): /kyc/start and the setup dashboard (ADR 0086). A `user`
// route: the server takes the user from the token.

export function recordConsent(api: ApiClient, body: ConsentRequest): Promise<ConsentCreated> {
  return api.call('CreateConsent', body, { response: consentCreated });
}

/**
 * What a failed consent call means for the dialog: the session ended (the shell has said so), the
 * address is not verified (403), the API refused, or no usable answer came.
 */
export function consentFailure(error: unknown): 'session-end' | 'email-not-verified' | 'refused' | 'failed' {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.status === 401) return 'session-end';
  if (error.is(problemUri('email-not-verified'))) return 'email-not-verified';
  return error.status >= 400 ? 'refused' : 'failed';
}
