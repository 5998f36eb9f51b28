import type { KycStatusChanged } from '#contracts/events.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import { ConcurrentChangeError } from '#lambdas/domain/kyc/errors.ts';
import type { AppMetadata, KycStateReader, UserDirectory, UserProfiles } from '#lambdas/domain/ports.ts';

export type SyncOutcome = 'synced' | 'in_sync' | 'stale_event' | 'user_missing';

/** Patches per delivery before giving up and letting EventBridge retry the whole delivery. */
export const maxSyncPatches = 5;

type Wanted = { kyc_status: KycStatus; kyc_updated_at: string };
const same = (a: { kyc_status?: unknown; kyc_updated_at?: unknown } | undefined, b: Wanted) =>
  a?.kyc_status === b.kyc_status && a?.kyc_updated_at === b.kyc_updated_at;

/**
 * Copies the CURRENT KYC status into Auth0 `app_metadata` (`kyc_status`, `kyc_updated_at`, flat
 * keys). Reading the table instead of trusting the event makes deliveries in any order converge;
 * the event's own status is used only when the table has no state for the user.
 *
 * What Auth0 holds is known without asking it (ADR 0059): the user's profile records what each
 * patch's answer said Auth0 held. So a redelivery costs no Management API call, and a change costs
 * one PATCH. Auth0 is read only when the profile cannot say: an account without a profile (created
 * outside registration: the read also writes its profile), or one marked unsettled because a
 * PATCH timed out and may still land after a newer one.
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
  profiles: UserProfiles;
}) {
  return async (event: KycStatusChanged): Promise<SyncOutcome> => {
    const { userId } = event;
    const [state, lookup] = await Promise.all([deps.kyc.getState(userId), deps.profiles.get(userId)]);
    if (lookup?.kind === 'erased') return 'user_missing';
    const profile = lookup?.profile;
    // Careful: Auth0's own answer is needed, before the patches and after them.
    const careful = !profile?.auth0Kyc || profile.auth0Unsettled;
    let known: AppMetadata | undefined;
    if (careful) {
      const user = await deps.users.get(userId);
      if (!user) return 'user_missing';
      known = user.appMetadata;
      if (!profile) {
        await deps.profiles.saveAccount({
          userId,
          email: user.email,
          name: user.name,
          ...(user.appMetadata.organization_type
            ? { organizationType: user.appMetadata.organization_type }
            : {}),
        });
      }
    } else {
      known = { kyc_status: profile?.auth0Kyc?.status, kyc_updated_at: profile?.auth0Kyc?.updatedAt };
    }

    const patch = async (wanted: Wanted): Promise<void> => {
      try {
        const landed = await deps.users.updateAppMetadata(userId, wanted);
        known = landed ?? known;
      } catch (error) {
        // It may still be applied, after a newer one: the next delivery must read Auth0 first.
        await deps.profiles.markAuth0Unsettled(userId).catch(() => undefined);
        throw error;
      }
    };
    const record = async (settled: boolean) => {
      if (known?.kyc_status && known.kyc_updated_at) {
        await deps.profiles.recordAuth0Kyc(
          userId,
          { status: known.kyc_status, updatedAt: known.kyc_updated_at },
          { settled },
        );
      }
    };

    if (!state) {
      // Without a table item, only time orders events: an older one must not undo a newer one.
      if (known?.kyc_updated_at !== undefined && known.kyc_updated_at > event.occurredAt)
        return 'stale_event';
      const wanted = { kyc_status: event.status, kyc_updated_at: event.occurredAt };
      if (same(known, wanted)) {
        if (careful) await record(true);
        return 'in_sync';
      }
      await patch(wanted);
      await record(careful);
      return 'synced';
    }

    let wanted: Wanted = { kyc_status: state.status, kyc_updated_at: state.updatedAt || event.occurredAt };
    if (same(known, wanted)) {
      if (careful) await record(true);
      return 'in_sync';
    }
    for (let attempt = 1; attempt <= maxSyncPatches; attempt++) {
      await patch(wanted);
      const now = await deps.kyc.getState(userId);
      // The item cannot disappear (no role deletes KYC state); if it did, the patch stands.
      if (!now) {
        await record(careful);
        return 'synced';
      }
      const truth = { kyc_status: now.status, kyc_updated_at: now.updatedAt || wanted.kyc_updated_at };
      if (!same(truth, wanted)) {
        wanted = truth;
        continue;
      }
      if (careful) {
        // A PATCH that timed out (this one's or another delivery's, an older status) can still be
        // applied after ours: read Auth0 back and patch again if it no longer says what the table
        // says (seen under load: ADR 0031). Only then is the record settled.
        const landed = await deps.users.get(userId);
        if (landed && !same(landed.appMetadata, wanted)) {
          known = landed.appMetadata;
          continue;
        }
      }
      await record(careful);
      return 'synced';
    }
    throw new ConcurrentChangeError();
  };
}
