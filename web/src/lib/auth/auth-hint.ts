import { useSyncExternalStore } from 'react';
import { sessionEndsAt } from '#web/lib/session-clock.ts';
import { storage } from '#web/lib/storage.ts';

// A non-secret hint, not a session: it only decides what the nav offers without loading the sign-in
// module. `signed-in` means "this browser's user is signed in, verified and approved" (the nav then
// offers Dashboard and Log Out); `admin` that the user is an administrator (the nav offers
// Verification Review and Log Out); `team` a signed-in one who is also their organization's approved
// admin (the nav adds Team, ADR 0084); `onboarding` a signed-in user not yet approved (the nav offers
// their next step and Log Out, ADR 0085); anyone else gets the logged-out choices. The app shell
// writes it from `GET /api/me`; Log Out clears it. It counts only while the session's clock
// (`lib/session-clock.ts`) says the session lives: one that ended in another tab, by a rule or after
// its 60 minutes shows the logged-out choices on every page. App routes always check the real session.

export const authHintStorageKey = 'auth-hint';
export type AuthHint = 'pending' | 'signed-in' | 'team' | 'admin' | 'onboarding' | 'signed-out';

/**
 * `true`: signed in and approved; `'team'`: that and the organization's admin; `'admin'`: an
 * administrator; `'onboarding'`: signed in, not yet approved; `false`: signed out.
 */
export function setAuthHint(signedIn: boolean | 'admin' | 'team' | 'onboarding'): void {
  const value = signedIn === true ? 'signed-in' : signedIn || 'signed-out';
  if (storage.get(authHintStorageKey) === value) return;
  storage.set(authHintStorageKey, value);
  window.dispatchEvent(new StorageEvent('storage', { key: authHintStorageKey }));
}

function read(): AuthHint {
  const value = storage.get(authHintStorageKey);
  const endsAt = sessionEndsAt(storage);
  return /^(signed-in|team|admin|onboarding)$/.test(value ?? '') && endsAt !== null && Date.now() < endsAt
    ? (value as AuthHint)
    : 'signed-out';
}

/**
 * Told of every change to local storage in other tabs (the hint, the session's record) and of
 * `setAuthHint` here, and looked at again when the session's clock says it ends.
 */
function subscribe(onChange: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    clearTimeout(timer);
    onChange();
    const left = (sessionEndsAt(storage) ?? 0) - Date.now();
    // At most a minute: timers drift and machines sleep.
    if (left > 0) timer = setTimeout(check, Math.min(left + 1, 60_000));
  };
  window.addEventListener('storage', check);
  check();
  return () => {
    clearTimeout(timer);
    window.removeEventListener('storage', check);
  };
}

/** `pending` in prerendered HTML and during hydration (the nav shows its Loading slot). */
export function useAuthHint(): AuthHint {
  return useSyncExternalStore(subscribe, read, () => 'pending');
}
