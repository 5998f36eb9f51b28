// The app shell: the one lazy, pathless route above every signed-in screen. It holds the identity
// provider, the session (the API client with the token, `GET /api/me`), the session rules and the
// guard that asks `routeAccess` (web/src/lib/journey.ts) before a screen renders. Public pages never
// load it. Decisions: docs/decisions/0025-app-shell.md.
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { type MeResponse, meResponse } from '#contracts/me.ts';
import { problemTypes } from '#contracts/problem.ts';
import { signedInRouteKeys } from '#contracts/signed-in-route-keys.ts';
import type { WebConfig } from '#contracts/web-config.ts';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { useToast } from '#web/components/toast.tsx';
import { appShell } from '#web/content/app-shell.ts';
import { sessionMessages } from '#web/content/session.ts';
import {
  endSession,
  holdSessionActivity,
  recordSessionActivity,
  type SessionLogoutDetails,
  type SessionWarning,
  startSession,
  useSessionRules,
} from '#web/features/session/index.ts';
import { ApiError, createApiClient } from '#web/lib/api-client.ts';
import { setAuthHint } from '#web/lib/auth/auth-hint.ts';
import { AuthProvider, type AuthSession, authErrorMessage, isLoginRequired } from '#web/lib/auth/auth0.tsx';
import { loadConfig } from '#web/lib/config.ts';
import { type AppRouteKey, journeyState, routeAccess, signedOut } from '#web/lib/journey.ts';
import { clearJourneyData, pendingNoticeKey } from '#web/lib/journey-storage.ts';
import { type Session, SessionContext } from '#web/lib/session.ts';
import { tabStorage } from '#web/lib/storage.ts';
import '#web/styles/app.css';
import { paths } from '#web/config/paths.ts';

/** What each app route's `handle` carries (web/src/app/routes.tsx). */
export interface AppRouteHandle {
  appRoute: AppRouteKey;
}

function useAppRoute(): AppRouteKey | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]?.handle as Partial<AppRouteHandle> | undefined;
    if (handle?.appRoute) return handle.appRoute;
  }
  return undefined;
}

export function Component() {
  const [config, setConfig] = useState<WebConfig>();
  const [failed, setFailed] = useState(false);
  const navigate = useNavigate();

  useEffect(() => {
    loadConfig().then(setConfig, (error: unknown) => {
      console.error('the app configuration failed to load', error);
      setFailed(true);
    });
  }, []);

  if (failed) {
    return (
      <ShellMessage title={appShell.configFailed.title} body={appShell.configFailed.body}>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {appShell.configFailed.retry}
        </button>
      </ShellMessage>
    );
  }
  if (!config) return <ShellLoading />;
  return (
    <AuthProvider
      config={config}
      // Replaces the callback's history entry (`?code&state`), keeping where the login started.
      onLoggedIn={(returnTo) => {
        // A completed login starts the session's clock (the 60-minute maximum counts from here).
        startSession();
        navigate(paths.authCallback.getHref(), { replace: true, state: { returnTo } });
      }}
    >
      {(auth) => <SessionGate auth={auth} />}
    </AuthProvider>
  );
}

type MeState = { state: 'idle' | 'loading' } | { state: 'ready'; me: MeResponse } | { state: 'failed' };

function SessionGate({ auth }: { auth: AuthSession }) {
  const route = useAppRoute();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const [meState, setMeState] = useState<MeState>({ state: 'idle' });
  const ended = useRef(false);
  // Logging out: auth0-react forgets the session before the browser has left, and a guard seeing
  // "signed out" on an app route would start a new login over the logout.
  const [leaving, setLeaving] = useState(false);
  // The inactivity warning on screen: it stays until answered, or until the session ends.
  const inactivityWarning = useRef<number | undefined>(undefined);
  const dismissInactivityWarning = useCallback(() => {
    if (inactivityWarning.current !== undefined) toast.dismiss(inactivityWarning.current);
    inactivityWarning.current = undefined;
  }, [toast]);

  const onWarning = (message: string, durationMs: number | null, kind: SessionWarning['kind']) => {
    if (kind !== 'inactivity') {
      toast.info(message, { durationMs });
      return;
    }
    dismissInactivityWarning();
    inactivityWarning.current = toast.info(message, {
      durationMs,
      action: { label: sessionMessages.staySignedIn, onAction: recordSessionActivity },
    });
  };

  /** Ends the session in this tab once, however it ends; false when it had already ended. */
  const endHere = useCallback(() => {
    if (ended.current) return false;
    ended.current = true;
    dismissInactivityWarning();
    setLeaving(true);
    endSession();
    setAuthHint(false);
    clearJourneyData();
    return true;
  }, [dismissInactivityWarning]);

  // The session is over without the user asking (token refused, refresh failed): forget it here,
  // without a round trip to the identity provider, and say why.
  const expire = useCallback(
    (message: string = appShell.auth.sessionExpired) => {
      if (!endHere()) return;
      toast.error(message);
      auth.logoutLocally().finally(() => navigate(paths.home.getHref(), { replace: true }));
    },
    [auth, toast, navigate, endHere],
  );

  // Log Out, or a session rule that ended the session in this tab (inactivity, the 60-minute
  // maximum, a hidden tab): the identity provider's session ends too, and the rule's message is
  // shown when the provider sends the browser back to the site's root.
  const logout = useCallback(
    (notice?: string) => {
      if (!endHere()) return;
      if (notice) tabStorage.set(pendingNoticeKey, notice);
      auth.logout();
    },
    [auth, endHere],
  );

  const onRuleLogout = useCallback(
    (message: string, { reason, source }: SessionLogoutDetails) => {
      // Another tab already ended the provider's session, and a failed refresh has no session to
      // end: forget it here and say why.
      if (source === 'other-tab' || reason === 'refresh-failed' || reason === 'ended') expire(message);
      else logout(message);
    },
    [expire, logout],
  );

  useSessionRules({
    active: auth.isAuthenticated,
    pathname: location.pathname,
    onWarning,
    onLogout: onRuleLogout,
    refreshToken: async () => {
      await auth.getAccessToken({ fresh: true });
      // Each refresh also asks the server (ADR 0084): a member their organization removed gets 401
      // and the session ends here. Any other failure of that read is not a failed refresh.
      refreshMe().catch(() => undefined);
    },
  });

  const api = useMemo(
    () =>
      createApiClient(signedInRouteKeys, {
        getAccessToken: () =>
          auth.getAccessToken().catch((error: unknown) => {
            if (isLoginRequired(error)) expire();
            else toast.error(authErrorMessage(error, appShell.auth.tokenFailed));
            throw error;
          }),
        // A member their organization's admin removed is told so (ADR 0084), anyone else "expired".
        onUnauthorized: (error) =>
          expire(
            error.is(problemTypes.organizationMembershipEnded) ? appShell.auth.membershipEnded : undefined,
          ),
      }),
    [auth, expire, toast],
  );

  const accessToken = useCallback(() => auth.getAccessToken(), [auth]);

  const meRef = useRef<MeResponse | undefined>(undefined);
  const refreshMe = useCallback(
    async (options: { freshToken?: boolean } = {}) => {
      if (options.freshToken) await auth.getAccessToken({ fresh: true });
      const me = await api.call('GetMe', { response: meResponse });
      const before = meRef.current;
      // New claims (role, kyc_status) come with a fresh token; keep it in step with the server.
      if (!options.freshToken && before && before.kycStatus !== me.kycStatus) {
        await auth.getAccessToken({ fresh: true }).catch(() => undefined);
      }
      meRef.current = me;
      // An answer that arrives after the session ended (a refresh's read racing a logout) must not
      // tell the public pages' nav that someone is signed in.
      if (ended.current) return me;
      const approved = me.emailVerified && me.kycStatus === 'approved';
      setAuthHint(
        me.role === 'admin'
          ? 'admin'
          : !approved
            ? 'onboarding'
            : me.organizationRole === 'org_admin'
              ? 'team'
              : true,
      );
      setMeState({ state: 'ready', me });
      return me;
    },
    [api, auth],
  );

  const authenticated = auth.isAuthenticated;
  const settled = !auth.isLoading;
  useEffect(() => {
    if (settled && !authenticated) setAuthHint(false);
  }, [settled, authenticated]);

  useEffect(() => {
    if (!authenticated || meState.state !== 'idle') return;
    setMeState({ state: 'loading' });
    refreshMe().catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 401) return; // expire() handled it
      setMeState({ state: 'failed' });
    });
  }, [authenticated, meState.state, refreshMe]);

  // A failed login (the provider refused, the user cancelled): say so and go home.
  const callbackError = route === 'authCallback' ? auth.error : undefined;
  useEffect(() => {
    if (!callbackError) return;
    toast.error(authErrorMessage(callbackError, appShell.auth.loginFailed), {
      title: appShell.auth.errorTitle,
    });
    navigate(paths.home.getHref(), { replace: true });
  }, [callbackError, toast, navigate]);

  if (leaving) return <ShellLoading label={appShell.loggingOut} />;

  if (auth.isLoading || route === undefined || callbackError) {
    return <ShellLoading label={route === 'authCallback' ? appShell.completing : appShell.loading} />;
  }

  if (!auth.isAuthenticated) {
    const access = routeAccess(route, signedOut);
    if (access.kind === 'redirect') return <Navigate to={paths[access.to].getHref()} replace />;
    return <LoginRedirect auth={auth} returnTo={`${location.pathname}${location.search}`} />;
  }

  // An invitation's link (ADR 0084) opened by someone already signed in: the login still runs, so
  // the provider sees the invitation (routeAccess would only send them on to their next step).
  if (route === 'login' && location.search.includes('invitation=')) {
    return <LoginRedirect auth={auth} returnTo={location.pathname} />;
  }

  if (meState.state === 'failed') {
    return (
      <ShellMessage title={appShell.meFailed.title} body={appShell.meFailed.body}>
        <button type="button" className="button" onClick={() => setMeState({ state: 'idle' })}>
          {appShell.meFailed.retry}
        </button>
      </ShellMessage>
    );
  }
  if (meState.state !== 'ready') {
    return <ShellLoading label={route === 'authCallback' ? appShell.completing : appShell.loading} />;
  }

  const me = meState.me;
  const access = routeAccess(route, journeyState(me));
  const session: Session = {
    api,
    me,
    refreshMe,
    accessToken,
    logout: () => logout(),
    tokenOrganizationId: auth.user?.organizationId,
    loginThrough: (organization, returnTo) => auth.login(returnTo, organization),
    holdActivity: holdSessionActivity,
  };
  return (
    <SessionContext.Provider value={session}>
      {access.kind === 'render' && <Outlet />}
      {access.kind === 'redirect' && <Navigate to={paths[access.to].getHref()} replace />}
      {access.kind === 'forbidden' && <Forbidden />}
      {access.kind === 'login' && <LoginRedirect auth={auth} returnTo={location.pathname} />}
    </SessionContext.Provider>
  );
}

function LoginRedirect({ auth, returnTo }: { auth: AuthSession; returnTo: string }) {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    auth.login(returnTo);
  }, [auth, returnTo]);
  return <ShellLoading label={appShell.redirectingToLogin} />;
}

/** Reserves the screen's space, so the content that replaces it does not shift the footer. */
function ShellLoading({ label = appShell.loading }: { label?: string }) {
  return (
    <section className="container app-screen app-screen--loading" aria-busy="true">
      <p role="status" className="app-screen__status">
        {label}
      </p>
    </section>
  );
}

function ShellMessage(props: { title: string; body: string; children?: ReactNode }) {
  return (
    <section className="container app-screen prose">
      <ScreenHeading>{props.title}</ScreenHeading>
      <p>{props.body}</p>
      {props.children}
    </section>
  );
}

function Forbidden() {
  return (
    <section className="container app-screen prose">
      <AppTitle title={`${appShell.forbidden.title} (403)`} />
      <ScreenHeading>{appShell.forbidden.title}</ScreenHeading>
      <p>{appShell.forbidden.body}</p>
      <p>
        <Link to={paths.home.getHref()}>{appShell.forbidden.home}</Link>
      </p>
    </section>
  );
}
