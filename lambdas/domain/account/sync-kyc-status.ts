import type { KycStatusChanged } from '#contracts/events.ts';
import type { KycStateReader, UserDirectory } from '#lambdas/domain/ports.ts';

export type SyncOutcome = 'synced' | 'in_sync' | 'stale_event' | 'user_missing';

/**
 * Copies the CURRENT KYC status into Auth0 `app_metadata` (`kyc_status`, `kyc_updated_at`, flat
 * keys). Reading the table instead of trusting the event makes deliveries in any order converge;
 * the event's own status is used only when the table has no state for the user.
 */
export function syncKycStatus(deps: {
  users: Pick<UserDirectory, 'get' | 'updateAppMetadata'>;
  kyc: KycStateReader;
}) {
  return async (event: KycStatusChanged): Promise<SyncOutcome> => {
    const [state, user] = await Promise.all([deps.kyc.getState(event.userId), deps.users.get(event.userId)]);
    if (!user) return 'user_missing';
    const current = user.appMetadata;
    const status = state?.status ?? event.status;
    const updatedAt = state?.updatedAt || event.occurredAt;
    if (current.kyc_status === status && current.kyc_updated_at === updatedAt) return 'in_sync';
    // Without a table item, only time orders events: an older one must not undo a newer one.
    if (!state && current.kyc_updated_at !== undefined && current.kyc_updated_at > updatedAt)
      return 'stale_event';
    await deps.users.updateAppMetadata(event.userId, { kyc_status: status, kyc_updated_at: updatedAt });
    return 'synced';
  };
}
