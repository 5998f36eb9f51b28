// The seam for sign-in. Public pages import only this file; it holds no SDK. `./auth0.tsx` is the
// ONE module that imports @auth0/auth0-react; everything reaches it through the dynamic imports
// below or the lazy app shell, so the SDK never joins a public page's initial JS (the web bench
// checks it).
import { clearJourneyData } from '#web/lib/journey-storage.ts';
import { setAuthHint } from './auth-hint.ts';

export { type AuthHint, authHintStorageKey, setAuthHint, useAuthHint } from './auth-hint.ts';

/** Log In: forgets an unfinished registration and redirects to the identity provider's login. */
export async function signIn(): Promise<void> {
  clearJourneyData();
  const { startLogin } = await import('./auth0.tsx');
  await startLogin();
}

/** Log Out: forgets the journey's data and the session, and returns to the site's origin. */
export async function signOut(): Promise<void> {
  clearJourneyData();
  setAuthHint(false);
  const { startLogout } = await import('./auth0.tsx');
  await startLogout();
}
