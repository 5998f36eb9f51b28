import { useSyncExternalStore } from 'react';
import { storage } from '#web/lib/storage.ts';

// A non-secret hint, not a session: it only decides what the nav offers without loading the sign-in
// module. `signed-in` means "this browser's user is signed in, verified and approved" (the nav then
// offers Dashboard and Log Out); `admin` that the user is an administrator (the nav offers
// Verification Review and Log Out); `team` a signed-in one who is also their organization's approved
// admin (the nav adds Team, ADR 0084); anyone else gets the logged-out choices. The app shell writes it
// from `GET /api/me`; Log Out clears it. App routes always check the real session.

export const authHintStorageKey = 'auth-hint';
export type AuthHint = 'pending' | 'signed-in' | 'team' | 'admin' | 'signed-out';

/**
 * `true`: signed in and approved; `'team'`: that and the organization's admin; `'admin'`: an
 * administrator; `false`: none of them (or signed out).
 */
export function setAuthHint(signedIn: boolean | 'admin' | 'team'): void {
  const value = signedIn === true ? 'signed-in' : signedIn || 'signed-out';
  if (storage.get(authHintStorageKey) === value) return;
  storage.set(authHintStorageKey, value);
  window.dispatchEvent(new StorageEvent('storage', { key: authHintStorageKey }));
}

function read(): AuthHint {
  const value = storage.get(authHintStorageKey);
  return value === 'signed-in' || value === 'team' || value === 'admin' ? value : 'signed-out';
}

function subscribe(onChange: () => void): () => void {
  const listener = (event: StorageEvent) => {
    if (event.key === authHintStorageKey || event.key === null) onChange();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

/** `pending` in prerendered HTML and during hydration (the nav shows its Loading slot). */
export function useAuthHint(): AuthHint {
  return useSyncExternalStore(subscribe, read, () => 'pending');
}
