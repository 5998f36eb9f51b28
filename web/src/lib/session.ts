import { createContext, useContext } from 'react';
import type { MeResponse } from '#contracts/me.ts';
import type { ApiClient } from './api-client.ts';

// The signed-in session as screens see it. The app shell (web/src/app/app-layout.tsx) provides it
// once the identity provider has a session and `GET /api/me` has answered, so a screen never
// renders without `me`. Screens load their own data with `useResource` (web/src/lib/use-resource.ts)
// through `api`, which sends the bearer token.

export interface Session {
  /** The API client with the caller's token (`user` and `admin` routes). */
  api: ApiClient;
  /** The server's view of the caller (`GET /api/me`), never the token's. */
  me: MeResponse;
  /**
   * Asks `GET /api/me` again (and, when the KYC status changed, refreshes the access token so its
   * claims match). `freshToken` forces the token refresh, e.g. after the email was verified.
   */
  refreshMe(options?: { freshToken?: boolean }): Promise<MeResponse>;
  /**
   * A current access token, for what is not the API client's to call: the status screen's push
   * channel sends it to the realtime API (ADR 0060). Stable across renders.
   */
  accessToken(): Promise<string>;
  /** Log Out: ends the session at the identity provider and returns to the site. */
  logout(): void;
  /** The organization this login went through: the token's `org_id` (ADR 0083), if any. */
  tokenOrganizationId: string | undefined;
  /**
   * A new login through `organization` (remembered for the next ones, like the emailed link's):
   * the provider grants it over its session without a form; back to `returnTo` afterwards.
   */
  loginThrough(organization: string, returnTo?: string): Promise<void>;
  /**
   * Pauses the inactivity rule while the user works where the page cannot hear them (the identity
   * verification widget, a cross-origin frame); returns the release (idempotent), which counts as
   * activity. The hidden-tab rule and the 60-minute maximum still apply (ADR 0057).
   */
  holdActivity(): () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() is only available inside the app shell');
  return session;
}
