// One tab's side of the session rules: it listens (activity, visibility, other tabs' storage
// writes), asks `evaluateSession` what to do, does it, and sleeps until the next deadline.
// The React hook is a thin wrapper around this; tests drive it with their own clock and targets.
import {
  evaluateSession,
  type SessionEndReason,
  type SessionStep,
  type SessionWarning,
  sessionEndMessage,
  sessionLimits,
  type TabState,
} from './session-rules.ts';
import {
  beginSessionRecord,
  endSessionRecord,
  isSessionStorageKey,
  type KeyValueStore,
  parseSessionEnd,
  readSessionRecord,
  sessionStorageKeys,
  writeTime,
} from './session-store.ts';

export interface SessionLogoutDetails {
  reason: SessionEndReason;
  /** `this-tab`: a rule fired here; `other-tab`: another tab ended the session. */
  source: 'this-tab' | 'other-tab';
}

export interface SessionCallbacks {
  /** `durationMs`: how long to show it; `null` until the user answers it. */
  onWarning(message: string, durationMs: number | null, kind: SessionWarning['kind']): void;
  onLogout(message: string, details: SessionLogoutDetails): void;
  refreshToken(): Promise<void>;
}

export interface SessionTabEnvironment {
  now(): number;
  store: KeyValueStore;
  /** Receives activity, `storage` and `pagehide`/`pageshow` events: the window. */
  window: EventTarget;
  /** Receives `visibilitychange` and tells the visibility: the document. */
  document: EventTarget & { readonly visibilityState: DocumentVisibilityState };
  tabId: string;
}

export interface SessionTab {
  /** Records the current path as `lastActiveRoute`. */
  setRoute(pathname: string): void;
  /** The user said they are here (e.g. "Stay signed in"): counts as activity now. */
  recordActivity(): void;
  /**
   * While held (and this tab visible), inactivity does not count: the tab writes activity every
   * 30 s, so every tab agrees the user is present. For what the page cannot hear, such as the
   * identity verification widget's cross-origin frame. Returns the release (idempotent), which
   * counts as activity. The hidden-tab rule and the 60-minute maximum still apply.
   */
  holdActivity(): () => void;
  /** Stops listening and scheduling, without a callback. */
  stop(): void;
}

/** Mouse move, mouse down, key press, touch move, scroll, click. */
export const activityEvents = ['mousemove', 'mousedown', 'keydown', 'touchmove', 'scroll', 'click'] as const;

/** Activity is written at most this often: a mouse move fires dozens of events a second. */
export const activityWriteIntervalMs = 1_000;

// Passive: they never delay scrolling. Capture: `scroll` on an inner element does not bubble.
const listenerOptions: AddEventListenerOptions = { capture: true, passive: true };

const running = new Map<KeyValueStore, Set<SessionTab>>();

/** Stops, silently, every tab of this page that uses `store` (the user is logging out here). */
export function stopSessionTabs(store: KeyValueStore): void {
  for (const tab of [...(running.get(store) ?? [])]) tab.stop();
}

export function startSessionTab(callbacks: SessionCallbacks, env: SessionTabEnvironment): SessionTab {
  const { store, tabId } = env;
  let over = false;
  let refreshing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastActivityWrite = Number.NEGATIVE_INFINITY;
  let holds = 0;
  let wasVisible = isVisible();

  function isVisible(): boolean {
    return env.document.visibilityState === 'visible';
  }

  function state(visible: boolean): TabState {
    return { tabId, visible, refreshing, holdingActivity: holds > 0 };
  }

  function finish(reason: SessionEndReason, message: string, source: SessionLogoutDetails['source']): void {
    if (over) return;
    stop();
    if (source === 'this-tab') endSessionRecord(store, reason, env.now(), tabId);
    callbacks.onLogout(message, { reason, source });
  }

  /** `returning`: judged as the user comes back (the tab starts, or comes to the front). */
  function conclude(step: Extract<SessionStep, { kind: 'logout' }>, returning?: boolean): void {
    if (step.reason !== 'ended') {
      finish(step.reason, sessionEndMessage(step.reason, returning), 'this-tab');
      return;
    }
    // The record vanished: another tab ended the session (its `storage` event may still be on
    // its way). Say why, as that tab did.
    const reason = parseSessionEnd(store.get(sessionStorageKeys.ended)) ?? 'ended';
    finish(reason, sessionEndMessage(reason), 'other-tab');
  }

  /** Logs out if a rule's deadline has passed (judged with `visible`); true if it did. */
  function endedAsOf(visible: boolean, returning?: boolean): boolean {
    const step = evaluateSession(env.now(), readSessionRecord(store), state(visible));
    if (step.kind !== 'logout') return false;
    conclude(step, returning);
    return true;
  }

  /** `returning`: as in `conclude`. A timer calls it without arguments. */
  function evaluate(returning?: boolean): void {
    if (over) return;
    const now = env.now();
    const step = evaluateSession(now, readSessionRecord(store), state(isVisible()));
    if (step.kind === 'logout') {
      conclude(step, returning);
      return;
    }
    if (step.heartbeat) writeTime(store, sessionStorageKeys.lastVisible, now);
    if (step.activity) recordActivity(now);
    for (const warning of step.warnings) {
      const key =
        warning.kind === 'maximum'
          ? sessionStorageKeys.maximumWarnedFor
          : sessionStorageKeys.inactivityWarnedFor;
      writeTime(store, key, warning.deadline);
    }
    if (step.refresh) refresh(now);
    // Scheduled before the shell's callback runs: one that throws must not stop the rules.
    schedule(step.nextCheckAt - now);
    for (const warning of step.warnings) {
      callbacks.onWarning(warning.message, warning.durationMs, warning.kind);
    }
  }

  function schedule(delayMs: number): void {
    clearTimeout(timer);
    timer = setTimeout(evaluate, Math.min(Math.max(delayMs, 0), sessionLimits.maxCheckDelayMs));
  }

  function refresh(now: number): void {
    refreshing = true;
    // Claimed before the call, so other tabs wait for the next period instead of joining in.
    writeTime(store, sessionStorageKeys.lastRefresh, now);
    let call: Promise<void>;
    try {
      call = Promise.resolve(callbacks.refreshToken());
    } catch (error) {
      call = Promise.reject(error);
    }
    call.then(
      () => {
        refreshing = false;
        evaluate();
      },
      () => {
        refreshing = false;
        finish('refresh-failed', sessionEndMessage('refresh-failed'), 'this-tab');
      },
    );
  }

  function recordActivity(now: number): void {
    lastActivityWrite = now;
    writeTime(store, sessionStorageKeys.lastActivity, now);
    if (store.get(sessionStorageKeys.lastActiveTab) !== tabId) {
      store.set(sessionStorageKeys.lastActiveTab, tabId);
    }
  }

  /** The tab is in front (it started visible, or became visible): judge the time away first. */
  function arrive(): void {
    if (endedAsOf(false, true)) return;
    const now = env.now();
    // Bringing the site to the front is the user's doing: it counts as activity.
    recordActivity(now);
    writeTime(store, sessionStorageKeys.lastVisible, now);
    evaluate();
  }

  function leave(): void {
    if (endedAsOf(true)) return;
    // Visible until now: the hidden-tab rule counts from here if no other tab is in front.
    writeTime(store, sessionStorageKeys.lastVisible, env.now());
    evaluate();
  }

  const onActivity = () => {
    if (over) return;
    const now = env.now();
    if (now - lastActivityWrite < activityWriteIntervalMs) return;
    // A late timer must not let a mouse move revive a session whose deadline has passed.
    if (endedAsOf(isVisible())) return;
    recordActivity(now);
  };

  const onVisibilityChange = () => {
    if (over) return;
    const visible = isVisible();
    if (visible === wasVisible) return;
    wasVisible = visible;
    if (visible) arrive();
    else leave();
  };

  const onPageHide = () => {
    if (over || !isVisible()) return;
    writeTime(store, sessionStorageKeys.lastVisible, env.now());
  };

  const onStorage = (event: Event) => {
    if (over) return;
    const { key, newValue } = event as StorageEvent;
    if (!isSessionStorageKey(key)) return;
    if (key === sessionStorageKeys.ended) {
      const reason = parseSessionEnd(newValue);
      if (reason) finish(reason, sessionEndMessage(reason), 'other-tab');
      return;
    }
    evaluate();
  };

  function stop(): void {
    if (over) return;
    over = true;
    clearTimeout(timer);
    for (const type of activityEvents) env.window.removeEventListener(type, onActivity, listenerOptions);
    env.window.removeEventListener('storage', onStorage);
    env.window.removeEventListener('pagehide', onPageHide);
    env.window.removeEventListener('pageshow', onVisibilityChange);
    env.document.removeEventListener('visibilitychange', onVisibilityChange);
    running.get(store)?.delete(tab);
  }

  const tab: SessionTab = {
    setRoute(pathname) {
      if (!over && store.get(sessionStorageKeys.lastActiveRoute) !== pathname) {
        store.set(sessionStorageKeys.lastActiveRoute, pathname);
      }
    },
    stop,
    recordActivity() {
      if (over || endedAsOf(isVisible())) return;
      recordActivity(env.now());
      evaluate();
    },
    holdActivity() {
      // Judged as things stand before the hold: it must not revive a session already over.
      if (over || endedAsOf(isVisible())) return () => {};
      holds++;
      evaluate();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // Judged as held until now (the rules it paused do not apply to the time it lasted).
        if (over || endedAsOf(isVisible())) return;
        holds--;
        // Closing the widget is the user's doing: the 5 minutes start again from here.
        if (isVisible()) recordActivity(env.now());
        evaluate();
      };
    },
  };

  for (const type of activityEvents) env.window.addEventListener(type, onActivity, listenerOptions);
  env.window.addEventListener('storage', onStorage);
  env.window.addEventListener('pagehide', onPageHide);
  env.window.addEventListener('pageshow', onVisibilityChange);
  env.document.addEventListener('visibilitychange', onVisibilityChange);
  const tabs = running.get(store) ?? new Set();
  tabs.add(tab);
  running.set(store, tabs);

  if (readSessionRecord(store).startedAt === null) {
    // The shell calls startSession() at sign-in; a session restored without one (signed in
    // before these rules shipped, or storage cleared) starts counting now rather than never.
    beginSessionRecord(store, env.now());
    if (wasVisible) store.set(sessionStorageKeys.lastActiveTab, tabId);
    evaluate();
  } else if (wasVisible) arrive();
  else evaluate(true);

  return tab;
}
