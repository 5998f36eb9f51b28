import { useSyncExternalStore } from 'react';
import { storage } from '#web/lib/storage.ts';

// A non-secret hint, not a session: it only decides whether the nav offers Log In or Dashboard
// without loading the sign-in module. App routes always check the real session. The sign-in
// module (built later) writes it on sign-in and clears it on sign-out.

export const authHintStorageKey = 'auth-hint';
export type AuthHint = 'pending' | 'signed-in' | 'signed-out';

export function setAuthHint(signedIn: boolean): void {
  storage.set(authHintStorageKey, signedIn ? 'signed-in' : 'signed-out');
  window.dispatchEvent(new StorageEvent('storage', { key: authHintStorageKey }));
}

function read(): AuthHint {
  return storage.get(authHintStorageKey) === 'signed-in' ? 'signed-in' : 'signed-out';
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
