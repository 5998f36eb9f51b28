// The session rules as one pure function: given the time, the record every tab shares and what
// this tab knows about itself, say what happens now (log out, warn, refresh the token) and when to
// look again. No timers, no DOM, no storage here: `session-tab.ts` does the I/O.
import {
  sessionInactivitySeconds,
  sessionMaximumSeconds,
  tokenRefreshEverySeconds,
} from '#contracts/session-lifetimes.ts';
import { sessionMessages } from '#web/content/session.ts';

const minute = 60_000;
const second = 1000;

export const sessionLimits = {
  /** From `sessionStartTime`, whatever the user does (the refresh token's absolute lifetime too). */
  maxDurationMs: sessionMaximumSeconds * second,
  maxWarningBeforeMs: 5 * minute,
  maxWarningShownMs: 10_000,
  /** Without activity in a visible tab of the site. */
  inactivityMs: sessionInactivitySeconds * second,
  inactivityWarningAfterMs: 4 * minute,
  /** Shown until answered ("Stay signed in", its close button) or the session ends (ADR 0057). */
  inactivityWarningShownMs: null,
  /** Without any tab of the site visible. */
  hiddenMs: 5 * minute,
  refreshEveryMs: tokenRefreshEverySeconds * second,
  /** How much longer the other tabs wait before refreshing in place of the last active tab. */
  refreshGraceMs: 30_000,
  /** A visible tab says so this often, so hidden tabs know someone is still looking. */
  visibleHeartbeatMs: 30_000,
  /** The longest a tab sleeps between two looks (timers drift; machines sleep). */
  maxCheckDelayMs: 60_000,
} as const;

export type SessionLimits = typeof sessionLimits;

/** Why a session ended. `signed-out`: the user logged out; `ended`: the shared record vanished. */
export type SessionEndReason =
  | 'maximum-duration'
  | 'inactivity'
  | 'hidden-tab'
  | 'refresh-failed'
  | 'signed-out'
  | 'ended';

const endMessages: Record<SessionEndReason, string> = {
  'maximum-duration': sessionMessages.maximumDuration,
  inactivity: sessionMessages.inactivity,
  'hidden-tab': sessionMessages.hiddenTab,
  'refresh-failed': sessionMessages.expired,
  'signed-out': sessionMessages.signedOutElsewhere,
  ended: sessionMessages.expired,
};

/**
 * What the user is told. The 60 minutes have two wordings (ADR 0074, amendment): "exceeded" when the
 * rules end a session that is open, "reached" (`returning`) when the user comes back to one whose
 * 60 minutes had already run out: the app opened again, or its tab came back to the front.
 */
export function sessionEndMessage(reason: SessionEndReason, returning?: boolean): string {
  return returning && reason === 'maximum-duration'
    ? sessionMessages.maximumDurationReached
    : endMessages[reason];
}

export function isSessionEndReason(value: unknown): value is SessionEndReason {
  return typeof value === 'string' && Object.hasOwn(endMessages, value);
}

/** What every open tab shares (local storage). Times are epoch milliseconds. */
export interface SessionRecord {
  startedAt: number | null;
  lastActivityAt: number | null;
  /** The last moment some tab of the site was known to be visible. */
  lastVisibleAt: number | null;
  lastRefreshAt: number | null;
  lastActiveTab: string | null;
  /** The deadline whose inactivity warning some tab already showed. */
  inactivityWarnedFor: number | null;
  /** The deadline whose "expiring soon" warning some tab already showed. */
  maximumWarnedFor: number | null;
}

export interface TabState {
  tabId: string;
  visible: boolean;
  refreshing: boolean;
  /**
   * Something in this tab keeps the user present whose events the page cannot see (the identity
   * verification widget, a cross-origin frame): while visible, inactivity does not count.
   */
  holdingActivity: boolean;
}

export interface SessionWarning {
  kind: 'inactivity' | 'maximum';
  message: string;
  /** How long it stays on screen; `null`: until the user answers it. */
  durationMs: number | null;
  /** The deadline it warns about: shown once per deadline, across tabs. */
  deadline: number;
}

export type SessionStep =
  | { kind: 'logout'; reason: SessionEndReason; message: string }
  | {
      kind: 'continue';
      warnings: SessionWarning[];
      /** Refresh the token now (and claim the period for this tab). */
      refresh: boolean;
      /** Record that a tab is visible now. */
      heartbeat: boolean;
      /** Record activity now (a visible tab holding activity says the user is still there). */
      activity: boolean;
      /** When to evaluate again, at the latest. */
      nextCheckAt: number;
    };

/**
 * The rules, in order of the deadline that passed first (ties go to the 60-minute maximum):
 * - the maximum duration counts from `startedAt` in every tab;
 * - inactivity counts in a visible tab, from the last activity in any tab, unless that tab holds
 *   activity (then it writes activity every 30 s instead, so the other tabs agree);
 * - the hidden-tab rule counts in a hidden tab, from the last moment any tab was visible, so a
 *   user working in another tab of the site is never logged out by it.
 * Warnings are shown only by a visible tab, once per deadline across all tabs.
 */
export function evaluateSession(
  now: number,
  record: SessionRecord,
  tab: TabState,
  limits: SessionLimits = sessionLimits,
): SessionStep {
  const { startedAt } = record;
  if (startedAt === null) return logout('ended');

  const lastActivityAt = record.lastActivityAt ?? startedAt;
  const lastVisibleAt = record.lastVisibleAt ?? startedAt;
  const maximumEnd = startedAt + limits.maxDurationMs;
  const inactivityEnd = lastActivityAt + limits.inactivityMs;
  const hiddenEnd = lastVisibleAt + limits.hiddenMs;

  const held = tab.visible && tab.holdingActivity;
  const deadlines: [SessionEndReason, number][] = [['maximum-duration', maximumEnd]];
  if (!tab.visible) deadlines.push(['hidden-tab', hiddenEnd]);
  else if (!held) deadlines.push(['inactivity', inactivityEnd]);
  const passed = deadlines.filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1])[0];
  if (passed) return logout(passed[0]);

  const upcoming = deadlines.map(([, at]) => at);
  upcoming.push(now + limits.maxCheckDelayMs);
  const warnings: SessionWarning[] = [];
  let heartbeat = false;
  let activity = false;

  if (tab.visible) {
    const maximumWarningAt = maximumEnd - limits.maxWarningBeforeMs;
    if (record.maximumWarnedFor !== maximumEnd) {
      if (now >= maximumWarningAt) {
        warnings.push({
          kind: 'maximum',
          message: sessionMessages.expiringSoon,
          durationMs: limits.maxWarningShownMs,
          deadline: maximumEnd,
        });
      } else upcoming.push(maximumWarningAt);
    }
    const inactivityWarningAt = lastActivityAt + limits.inactivityWarningAfterMs;
    if (held) {
      // Like the visible heartbeat: half the period, so two tabs never answer each other's writes.
      activity = now - lastActivityAt >= limits.visibleHeartbeatMs / 2;
      upcoming.push((activity ? now : lastActivityAt) + limits.visibleHeartbeatMs);
    } else if (record.inactivityWarnedFor !== inactivityEnd) {
      if (now >= inactivityWarningAt) {
        warnings.push({
          kind: 'inactivity',
          message: sessionMessages.inactivityWarning,
          durationMs: limits.inactivityWarningShownMs,
          deadline: inactivityEnd,
        });
      } else upcoming.push(inactivityWarningAt);
    }
    // Half the period: two visible tabs then never answer each other's writes with their own.
    heartbeat = now - lastVisibleAt >= limits.visibleHeartbeatMs / 2;
    upcoming.push((heartbeat ? now : lastVisibleAt) + limits.visibleHeartbeatMs);
  }

  let refresh = false;
  if (!tab.refreshing) {
    const lastActive = record.lastActiveTab === null || record.lastActiveTab === tab.tabId;
    const refreshAt =
      (record.lastRefreshAt ?? startedAt) + limits.refreshEveryMs + (lastActive ? 0 : limits.refreshGraceMs);
    if (now >= refreshAt) refresh = true;
    else upcoming.push(refreshAt);
  }

  return { kind: 'continue', warnings, refresh, heartbeat, activity, nextCheckAt: Math.min(...upcoming) };
}

function logout(reason: SessionEndReason): SessionStep {
  return { kind: 'logout', reason, message: sessionEndMessage(reason) };
}
