import { type ConsentHistory, consentHistory } from '#contracts/consent.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

/** The caller's own consent ledger records (a `user` route: `api` is the session's client). */
export function getConsentHistory(api: ApiClient, signal: AbortSignal): Promise<ConsentHistory> {
  return api.call('ListMyConsents', { response: consentHistory, signal });
}
