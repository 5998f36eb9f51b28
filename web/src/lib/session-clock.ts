// The session's clock as every page reads it: two times of the record the session rules keep in
// local storage (web/src/features/session, ADR 0024, ADR 0074). The rules run only in the signed-in
// app shell; public pages read the same record here, without the rules or the identity SDK, so the
// nav never offers "Dashboard / Log Out" for a session that is over (ADR 0085).
import { sessionInactivitySeconds, sessionMaximumSeconds } from '#contracts/session-lifetimes.ts';

export const sessionClockKeys = {
  /** Set at sign-in; removed when the session ends (Log Out, a rule, in any tab). */
  startTime: 'sessionStartTime',
  /** The last activity in any tab of the signed-in app. */
  lastActivity: 'sessionLastActivity',
} as const;

/** Where the record is read from: local storage (`lib/storage`), or the rules' fallback. */
export interface SessionClockSource {
  get(key: string): string | null;
}

/** An epoch-milliseconds time as the record stores it; `null` when absent or not one. */
export function readSessionTime(store: SessionClockSource, key: string): number | null {
  const raw = store.get(key);
  return raw === null || !/^\d{1,16}$/.test(raw) ? null : Number(raw);
}

/**
 * When the recorded session is over at the latest, as the rules judge a tab the user looks at: 60
 * minutes from sign-in, or 5 minutes after the last activity in any tab of the app, whichever comes
 * first. `null`: there is none (never signed in, logged out, ended in another tab or by a rule).
 */
export function sessionEndsAt(store: SessionClockSource): number | null {
  const startedAt = readSessionTime(store, sessionClockKeys.startTime);
  if (startedAt === null) return null;
  const lastActivityAt = readSessionTime(store, sessionClockKeys.lastActivity) ?? startedAt;
  return Math.min(startedAt + sessionMaximumSeconds * 1000, lastActivityAt + sessionInactivitySeconds * 1000);
}
