// The ONE module that imports @auth0/auth0-react (which carries its own copy of auth0-spa-js: never
// import that package directly, or it ships twice). Reached only through the lazy app shell and the
// dynamic imports in ./index.ts, so no public page's initial JS holds it.
//
// Both the app shell's provider and the Log In / Log Out actions build their options here, from
// `/config.json`: redirect login with code + PKCE, refresh tokens kept in local storage, the API
// audience, and the scopes the journey needs (docs/design.md section 7).
import {
  type AppState,
  Auth0Provider,
  type Auth0ProviderWithConfigOptions,
  useAuth0,
} from '@auth0/auth0-react';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { WebConfig } from '#contracts/web-config.ts';
import { buildLocale } from '#web/config/locale.ts';
import { paths } from '#web/config/paths.ts';
import { loadConfig } from '#web/lib/config.ts';

export const authScopes = 'openid profile email offline_access';

/** The provider's options for a stage's config; the same for the app shell and the actions. */
export function auth0Options(config: WebConfig, origin: string): Auth0ProviderWithConfigOptions {
  return {
    domain: config.auth0.domain,
    clientId: config.auth0.clientId,
    authorizationParams: {
      redirect_uri: `${origin}${paths.authCallback.path}`,
      audience: config.auth0.audience,
      scope: authScopes,
      // Universal Login in the page's language, where the tenant has it (ADR 0089).
      ui_locales: buildLocale,
    },
    useRefreshTokens: true,
    // Refresh tokens only: no hidden-iframe fallback (blocked by the CSP and by Safari anyway).
    useRefreshTokensFallback: false,
    cacheLocation: 'localstorage',
  };
}

/** What the signed-in app needs from the identity SDK, without the SDK's types. */
export interface AuthSession {
  isLoading: boolean;
  isAuthenticated: boolean;
  /** A login or token error the SDK reported (e.g. the provider refused the callback). */
  error: Error | undefined;
  /** `organizationId`: the ID token's `org_id`, the organization this login went through (ADR 0083). */
  user: { sub: string; email?: string; name?: string; organizationId?: string } | undefined;
  /** An access token for the API; `fresh` skips the cache so new claims arrive (after a status change). */
  getAccessToken(options?: { fresh?: boolean }): Promise<string>;
  /**
   * Redirect login; `returnTo` is where the callback sends the user afterwards. `organization`
   * signs in through that organization and remembers it, as the emailed link's does.
   */
  login(returnTo?: string, organization?: string): Promise<void>;
  /** Revokes the refresh token, logs out at the identity provider and comes back to the site's origin. */
  logout(): Promise<void>;
  /** Revokes the refresh token and forgets the session in this browser, without a redirect (`login_required`). */
  logoutLocally(): Promise<void>;
}

/** The provider's description of a library error, or the given fallback ("Login failed"...). */
export function authErrorMessage(error: unknown, fallback: string): string {
  if (error && typeof error === 'object') {
    const description = (error as { error_description?: unknown }).error_description;
    if (typeof description === 'string' && description.trim() !== '') return description;
  }
  return fallback;
}

/** `login_required` and friends: the identity provider no longer has a session for this browser. */
export function isLoginRequired(error: unknown): boolean {
  const code = error && typeof error === 'object' ? (error as { error?: unknown }).error : undefined;
  return (
    code === 'login_required' ||
    code === 'missing_refresh_token' ||
    code === 'invalid_grant' ||
    code === 'consent_required'
  );
}

const loginParams = { screen_hint: 'login', prompt: 'login' } as const;

/** Where the organization a member signs in through is remembered (ADR 0083). */
const organizationKey = 'platform.organization';
/** An Auth0 organization id: `org_` and letters and digits. */
const organizationId = /^org_[A-Za-z0-9]{1,46}$/;

/**
 * The organization to sign in through (`/authorize?organization=`, ADR 0083): the sign-in link's
 * `?organization=` (the login-instructions email's), remembered for the next sign-in of this
 * browser; forgotten when the provider refuses it (`access_denied`: not a member).
 */
export function loginOrganization(search: string, storage: Pick<Storage, 'getItem' | 'setItem'>) {
  const fromLink = new URLSearchParams(search).get('organization');
  let organization: string | null = null;
  try {
    if (fromLink && organizationId.test(fromLink)) storage.setItem(organizationKey, fromLink);
    organization = storage.getItem(organizationKey);
  } catch {
    // Storage refused (a private window's quota): the link's alone, this once.
    organization = fromLink;
  }
  return organization && organizationId.test(organization) ? { organization } : {};
}

/** An invitation's ticket: letters, digits, `-` and `_` (base64url), never a parameter smuggled in. */
const invitationTicket = /^[\w-]{1,128}$/;

/**
 * An invitation's link (ADR 0081): `?invitation=<ticket>&organization=<org_id>`; both go to
 * `/authorize`, the invitation only with its organization.
 */
export function loginInvitation(search: string): { invitation?: string } {
  const query = new URLSearchParams(search);
  const invitation = query.get('invitation');
  return invitation &&
    invitationTicket.test(invitation) &&
    organizationId.test(query.get('organization') ?? '')
    ? { invitation }
    : {};
}

function forgetRefusedOrganization(): void {
  const query = new URLSearchParams(window.location.search);
  if (window.location.pathname !== paths.authCallback.path || query.get('error') !== 'access_denied') return;
  try {
    localStorage.removeItem(organizationKey);
  } catch {
    // Nothing remembered, then.
  }
}

function useAuthSession(): AuthSession {
  const auth = useAuth0();
  const { getAccessTokenSilently, loginWithRedirect, logout, revokeRefreshToken } = auth;
  // Token requests in flight: a refresh the session rules started just before a logout.
  const inFlight = useRef(new Set<Promise<unknown>>());
  const actions = useMemo(() => {
    // Every way out revokes the refresh token at the provider (`/oauth/revoke`) before the SDK
    // forgets it: a copy taken from local storage is worthless afterwards (ADR 0074). It waits for
    // a refresh in flight, whose exchange the revocation would otherwise refuse, so the token
    // revoked is the last one. A revocation that fails does not keep anyone signed in: the token
    // then dies of its idle lifetime.
    const revoke = async () => {
      await Promise.allSettled([...inFlight.current]);
      await revokeRefreshToken().catch(() => undefined);
    };
    return {
      getAccessToken: async (options: { fresh?: boolean } = {}) => {
        const request = getAccessTokenSilently(options.fresh ? { cacheMode: 'off' } : {});
        inFlight.current.add(request);
        const token = await request.finally(() => inFlight.current.delete(request));
        if (!token) throw new Error('The identity provider returned no access token');
        return token;
      },
      login: (returnTo?: string, organization?: string) => {
        const search = organization ? `?organization=${organization}` : window.location.search;
        return loginWithRedirect({
          authorizationParams: {
            // Through the member's organization, over the provider's session: no second password form.
            ...(organization ? {} : loginParams),
            ...loginOrganization(search, localStorage),
            ...loginInvitation(search),
          },
          ...(returnTo ? { appState: { returnTo } } : {}),
        });
      },
      logout: async () => {
        await revoke();
        await logout({ logoutParams: { returnTo: window.location.origin } });
      },
      logoutLocally: async () => {
        await revoke();
        await logout({ openUrl: false });
      },
    };
  }, [getAccessTokenSilently, loginWithRedirect, logout, revokeRefreshToken]);
  const user = auth.user?.sub
    ? { sub: auth.user.sub, email: auth.user.email, name: auth.user.name, organizationId: auth.user.org_id }
    : undefined;
  return {
    isLoading: auth.isLoading,
    isAuthenticated: auth.isAuthenticated,
    error: auth.error,
    user,
    ...actions,
  };
}

/**
 * The app shell's provider. It handles the authorization response only on the callback route and
 * hands the login's `returnTo` to `onLoggedIn`, which replaces the callback's history entry.
 */
export function AuthProvider(props: {
  config: WebConfig;
  onLoggedIn: (returnTo: string | undefined) => void;
  children: (session: AuthSession) => ReactNode;
}) {
  const options = auth0Options(props.config, window.location.origin);
  forgetRefusedOrganization();
  return (
    <Auth0Provider
      {...options}
      skipRedirectCallback={window.location.pathname !== paths.authCallback.path}
      onRedirectCallback={(appState?: AppState) =>
        props.onLoggedIn(typeof appState?.returnTo === 'string' ? appState.returnTo : undefined)
      }
    >
      <SessionChildren>{props.children}</SessionChildren>
    </Auth0Provider>
  );
}

function SessionChildren({ children }: { children: (session: AuthSession) => ReactNode }) {
  return <>{children(useAuthSession())}</>;
}

/**
 * Runs one action with a short-lived provider outside the page's tree: the Log In and Log Out
 * buttons live on public pages, which never mount the app shell.
 */
async function withSession(action: (session: AuthSession) => Promise<void>): Promise<void> {
  const config = await loadConfig();
  const host = document.createElement('div');
  const root = createRoot(host);
  await new Promise<void>((resolve, reject) => {
    const run = (session: AuthSession) => action(session).then(resolve, reject);
    root.render(
      <Auth0Provider {...auth0Options(config, window.location.origin)} skipRedirectCallback>
        <SessionChildren>{(session) => <RunOnce session={session} run={run} />}</SessionChildren>
      </Auth0Provider>,
    );
  }).finally(() => setTimeout(() => root.unmount(), 0));
}

/** Calls `run` once, with the first session that has finished loading. */
function RunOnce({ session, run }: { session: AuthSession; run: (session: AuthSession) => void }) {
  const started = useRef(false);
  useEffect(() => {
    if (session.isLoading || started.current) return;
    started.current = true;
    run(session);
  }, [session, run]);
  return null;
}

export function startLogin(): Promise<void> {
  return withSession((session) => session.login());
}

export function startLogout(): Promise<void> {
  return withSession((session) => session.logout());
}
