import { type ConsentCreated, type ConsentRequest, consentCreated } from '#contracts/consent.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// The consent call, apart from ./kyc-api.ts so that /kyc/persona does not load the consent
// contract and its documents. A `user` route: the server takes the user from the token.

export function recordConsent(api: ApiClient, body: ConsentRequest): Promise<ConsentCreated> {
  return api.call('CreateConsent', body, { response: consentCreated });
}
