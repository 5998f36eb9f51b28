import type { KycStatusChanged } from '#contracts/events.ts';
import { ConcurrentChangeError } from '#lambdas/domain/kyc/errors.ts';
import type { KycStateReader, UserDirectory } from '#lambdas/domain/ports.ts';

export type SyncOutcome = 'synced' | 'in_sync' | 'stale_event' | 'user_missing';

/** Patches per delivery before giving up and letting EventBridge retry the whole delivery. */
export const maxSyncPatches = 5;

/**
 * Copies the CURRENT KYC status into Auth0 `app_metadata` (`kyc_status`, `kyc_updated_at`, flat
 * keys). Reading the table instead of trusting the event makes deliveries in any order converge;
 * the event's own status is used only when the table has no state for the user.
 *
 * Auth0's PATCH has no condition, so two deliveries for one user can read the table in one order
 * and land their patches in the other: the older status would win. Each delivery therefore reads
 * the table again after its patch has landed and patches again until the table says what it
 * wrote. Whichever patch lands last was followed by such a read, so Auth0 ends equal to the table
 * (ADR 0031).
 */
export function syncKycStatus(deps: {
  users: Pick<UserDirectory, 'get' | 'updateAppMetadata'>;
  kyc: KycStateReader;
}) {
  return async (event: KycStatusChanged): Promise<SyncOutcome> => {
    const [state, user] = await Promise.all([deps.kyc.getState(event.userId), deps.users.get(event.userId)]);
    if (!user) return 'user_missing';
    const current = user.appMetadata;
    if (!state) {
      // Without a table item, only time orders events: an older one must not undo a newer one.
      if (current.kyc_updated_at !== undefined && current.kyc_updated_at > event.occurredAt)
        return 'stale_event';
      if (current.kyc_status === event.status && current.kyc_updated_at === event.occurredAt)
        return 'in_sync';
      await deps.users.updateAppMetadata(event.userId, {
        kyc_status: event.status,
        kyc_updated_at: event.occurredAt,
      });
      return 'synced';
    }

    let wanted = { kyc_status: state.status, kyc_updated_at: state.updatedAt || event.occurredAt };
    if (current.kyc_status === wanted.kyc_status && current.kyc_updated_at === wanted.kyc_updated_at)
      return 'in_sync';
    const same = (a: { kyc_status?: unknown; kyc_updated_at?: unknown }) =>
      a.kyc_status === wanted.kyc_status && a.kyc_updated_at === wanted.kyc_updated_at;
    for (let patch = 1; patch <= maxSyncPatches; patch++) {
      await deps.users.updateAppMetadata(event.userId, wanted);
      const now = await deps.kyc.getState(event.userId);
      // The item cannot disappear (no role deletes KYC state); if it did, the patch stands.
      if (!now) return 'synced';
      const truth = { kyc_status: now.status, kyc_updated_at: now.updatedAt || wanted.kyc_updated_at };
      if (!same(truth)) {
        wanted = truth;
        continue;
      }
      // The table says what we wrote. A PATCH that timed out on its caller's side (ours or another
      // delivery's, an older status) can still be applied after ours: read Auth0 back and patch
      // again if it no longer says what the table says (seen under load: ADR 0031).
      const landed = await deps.users.get(event.userId);
      if (!landed || same(landed.appMetadata)) return 'synced';
    }
    throw new ConcurrentChangeError();
  };
}
