import { type ConsentHistoryRecord, consentHistoryRecord } from '#contracts/consent.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

/** Withdraws the caller's identity-verification consent; answers the ledger record appended. */
export function withdrawConsent(api: ApiClient): Promise<ConsentHistoryRecord> {
  return api.call(
    'WithdrawConsent',
    { consent_type: 'identity_verification' },
    { response: consentHistoryRecord },
  );
}
