// The session's clock as every page reads it: the record the session rules keep in local storage
// (web/src/features/session, ADR 0024, ADR 0074). The rules run only in the signed-in app shell;
// public pages read the same record here, without the rules or the identity SDK, so the nav never
// offers "Dashboard / Log Out" for a session that is over (ADR 0085).
import { sessionInactivitySeconds, sessionMaximumSeconds } from '#contracts/session-lifetimes.ts';

export const sessionStorageKeys = {
  startTime: 'sessionStartTime',
  lastActiveRoute: 'lastActiveRoute',
  lastActiveTab: 'lastActiveTab',
  lastActivity: 'sessionLastActivity',
  lastVisible: 'sessionLastVisible',
  lastRefresh: 'sessionLastRefresh',
  inactivityWarnedFor: 'sessionInactivityWarnedFor',
  maximumWarnedFor: 'sessionMaximumWarnedFor',
  /** Written when a session ends, so the other tabs end theirs with the same reason. */
  ended: 'sessionEnded',
} as const;

const sessionKeys: ReadonlySet<string> = new Set(Object.values(sessionStorageKeys));

/** Whether a `storage` event's key concerns the session (`null`: the whole storage was cleared). */
export function isSessionStorageKey(key: string | null): boolean {
  return key === null || sessionKeys.has(key);
}

/** An epoch-milliseconds time as the record stores it; `null` when absent or not one. */
export function readSessionTime(get: (key: string) => string | null, key: string): number | null {
  const raw = get(key);
  return raw === null || !/^\d{1,16}$/.test(raw) ? null : Number(raw);
}

/**
 * When the recorded session is over at the latest, as the rules judge a tab the user looks at: 60
 * minutes from sign-in, or 5 minutes after the last activity in any tab of the app, whichever comes
 * first. `null`: there is none (never signed in, logged out, ended in another tab or by a rule).
 */
export function sessionEndsAt(get: (key: string) => string | null): number | null {
  const startedAt = readSessionTime(get, sessionStorageKeys.startTime);
  if (startedAt === null) return null;
  const lastActivityAt = readSessionTime(get, sessionStorageKeys.lastActivity) ?? startedAt;
  return Math.min(startedAt + sessionMaximumSeconds * 1000, lastActivityAt + sessionInactivitySeconds * 1000);
}
