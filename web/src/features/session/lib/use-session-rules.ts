/*
 * Session rules for the signed-in app (issue 9, section 3; design in ADR 0024). This module holds
 * no Auth0 code: the app shell passes what it needs as callbacks.
 *
 *   // the app shell, inside <Auth0Provider> and <ToastProvider>:
 *   const { isAuthenticated, getAccessTokenSilently, logout } = useAuth0();
 *   const toast = useToast();
 *   useSessionRules({
 *     active: isAuthenticated,
 *     pathname: useLocation().pathname,
 *     onWarning: (message, durationMs, kind) => toast.info(message, { durationMs, ... }),
 *     onLogout: (message, { source }) => { ...show `message`, then log out of Auth0... },
 *     refreshToken: async () => { await getAccessTokenSilently({ cacheMode: 'off' }); },
 *   });
 *
 *   // a completed sign-in (Auth0Provider's onRedirectCallback runs before isAuthenticated):
 *   startSession();
 *   // the Log Out action, before Auth0's logout (the other open tabs log out too):
 *   endSession();
 *   // the inactivity warning's "Stay signed in":
 *   recordSessionActivity();
 *   // a screen whose user acts where the page cannot hear it (the verification widget's frame):
 *   const release = holdSessionActivity(); ... release();
 *
 * `onLogout` is called once per tab, with the rule's exact message, in the tab where the rule
 * fired (`source: 'this-tab'`) and in every other open tab (`source: 'other-tab'`, same message;
 * after the user's own Log Out elsewhere: "You logged out in another tab."). The shared record
 * is already cleared when it is called; the shell only has to end the Auth0 session.
 * `onWarning` says which warning (`inactivity`, `maximum`); a `durationMs` of `null` means the
 * warning stays until the user answers it (the inactivity warning).
 */
import { useEffect, useRef } from 'react';
import {
  defaultSessionStore,
  endSessionRecord,
  sessionStorageKeys,
  startSessionRecord,
} from './session-store.ts';
import { type SessionCallbacks, type SessionTab, startSessionTab, stopSessionTabs } from './session-tab.ts';

export interface SessionRulesOptions extends SessionCallbacks {
  /** True while signed in; the rules run only then. */
  active: boolean;
  /** The current path, kept as `lastActiveRoute`. */
  pathname: string;
  /** The clock (tests pass a controlled one); `Date.now` by default. */
  now?: () => number;
}

let thisTab: string | undefined;
/** This page's running session tab (the shell's hook), if signed in. */
let pageTab: SessionTab | null = null;
/** The holds taken on this page, each with the release of its hold on the running tab. */
const pageHolds = new Set<{ release: (() => void) | undefined }>();

/** This page's id, as written to `lastActiveTab` (one per page load). */
export function currentTabId(): string {
  thisTab ??=
    typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID()
      : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return thisTab;
}

export function useSessionRules(options: SessionRulesOptions): void {
  const { active, pathname } = options;
  // The latest callbacks, without restarting the timers when the shell passes new closures.
  const latest = useRef(options);
  latest.current = options;
  const tab = useRef<SessionTab | null>(null);

  useEffect(() => {
    if (!active) return;
    const started = startSessionTab(
      {
        onWarning: (message, durationMs, kind) => latest.current.onWarning(message, durationMs, kind),
        onLogout: (message, details) => latest.current.onLogout(message, details),
        refreshToken: () => latest.current.refreshToken(),
      },
      {
        now: () => (latest.current.now ?? Date.now)(),
        store: defaultSessionStore(),
        window,
        document,
        tabId: currentTabId(),
      },
    );
    tab.current = started;
    pageTab = started;
    // Holds taken before the rules started (a screen that opened first) apply to them too.
    for (const hold of pageHolds) hold.release = started.holdActivity();
    return () => {
      started.stop();
      tab.current = null;
      if (pageTab === started) pageTab = null;
    };
  }, [active]);

  useEffect(() => {
    if (active) tab.current?.setRoute(pathname);
  }, [active, pathname]);
}

/**
 * Call when a sign-in completes. Sets `sessionStartTime` if there is none (or only one left over
 * from a session that is already over); a live one, from a sign-in in another tab, stays.
 */
export function startSession({ now = Date.now }: { now?: () => number } = {}): void {
  startSessionRecord(defaultSessionStore(), now(), currentTabId());
}

/**
 * Call when the user logs out. Ends the session in every open tab (the others call their
 * `onLogout`); this tab's rules stop without a callback.
 */
export function endSession({ now = Date.now }: { now?: () => number } = {}): void {
  const store = defaultSessionStore();
  stopSessionTabs(store);
  endSessionRecord(store, 'signed-out', now(), currentTabId());
}

/**
 * Pauses the inactivity rule of this page's session while the user acts where the page cannot
 * hear it (the identity verification widget: a cross-origin frame), also for rules that start
 * later. Returns the release (idempotent), which counts as activity. The hidden-tab rule and the
 * 60-minute maximum still apply. ADR 0057.
 */
export function holdSessionActivity(): () => void {
  const hold = { release: pageTab?.holdActivity() };
  pageHolds.add(hold);
  return () => {
    if (!pageHolds.delete(hold)) return;
    hold.release?.();
  };
}

/** The user said they are here ("Stay signed in"): counts as activity in this page's session. */
export function recordSessionActivity(): void {
  pageTab?.recordActivity();
}

/** The path the user was on when last signed in (`lastActiveRoute`), if any. */
export function lastActiveRoute(): string | null {
  return defaultSessionStore().get(sessionStorageKeys.lastActiveRoute);
}
