// The seam for sign-in. Public pages import only this file; it holds no SDK. The sign-in issue
// replaces `./sign-in.ts` (the ONE module that may import @auth0/auth0-react) and the app routes'
// module; everything reaches them through the dynamic imports below, so the SDK never joins a
// public page's initial JS (the web bench checks it).
export { type AuthHint, authHintStorageKey, setAuthHint, useAuthHint } from './auth-hint.ts';

/** Starts sign-in (a redirect to the identity provider once the sign-in module exists). */
export async function signIn(): Promise<void> {
  const { startSignIn } = await import('./sign-in.ts');
  await startSignIn();
}
