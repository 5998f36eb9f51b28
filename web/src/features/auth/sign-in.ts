// Loaded on demand by `signIn()` only. The sign-in issue implements this with @auth0/auth0-react
// (redirect login, PKCE, refresh tokens; DESIGN section 7); until then it says so honestly.
export class SignInUnavailableError extends Error {
  override readonly name = 'SignInUnavailableError';
}

export async function startSignIn(): Promise<void> {
  throw new SignInUnavailableError('Sign-in is not available yet');
}
