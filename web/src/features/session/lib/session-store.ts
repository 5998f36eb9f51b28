// The session record every open tab shares, in local storage (through `lib/storage`, which never
// throws). Other tabs learn of a change from the `storage` event the browser fires in them.
import { readSessionTime, sessionClockKeys } from '#web/lib/session-clock.ts';
import { storage } from '#web/lib/storage.ts';
import {
  evaluateSession,
  isSessionEndReason,
  type SessionEndReason,
  type SessionRecord,
} from './session-rules.ts';

export const sessionStorageKeys = {
  /** These two are the session's clock, which public pages read too (`lib/session-clock.ts`). */
  ...sessionClockKeys,
  lastActiveRoute: 'lastActiveRoute',
  lastActiveTab: 'lastActiveTab',
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

export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

let fallback: KeyValueStore | undefined;

/**
 * Local storage when it works; otherwise memory, so that with storage disabled the rules still
 * hold in this tab (a start time that can never be read would mean a session that never ends).
 */
export function defaultSessionStore(): KeyValueStore {
  const probe = 'sessionStorageProbe';
  storage.set(probe, '1');
  const works = storage.get(probe) === '1';
  storage.remove(probe);
  if (works) return storage;
  if (!fallback) {
    const memory = new Map<string, string>();
    fallback = {
      get: (key) => memory.get(key) ?? null,
      set: (key, value) => void memory.set(key, value),
      remove: (key) => void memory.delete(key),
    };
  }
  return fallback;
}

export function readSessionRecord(store: KeyValueStore): SessionRecord {
  return {
    startedAt: readSessionTime(store, sessionStorageKeys.startTime),
    lastActivityAt: readSessionTime(store, sessionStorageKeys.lastActivity),
    lastVisibleAt: readSessionTime(store, sessionStorageKeys.lastVisible),
    lastRefreshAt: readSessionTime(store, sessionStorageKeys.lastRefresh),
    lastActiveTab: store.get(sessionStorageKeys.lastActiveTab),
    inactivityWarnedFor: readSessionTime(store, sessionStorageKeys.inactivityWarnedFor),
    maximumWarnedFor: readSessionTime(store, sessionStorageKeys.maximumWarnedFor),
  };
}

export function writeTime(store: KeyValueStore, key: string, at: number): void {
  store.set(key, String(Math.floor(at)));
}

/** A new session: every clock of the record starts now. */
export function beginSessionRecord(store: KeyValueStore, now: number): void {
  store.remove(sessionStorageKeys.ended);
  store.remove(sessionStorageKeys.inactivityWarnedFor);
  store.remove(sessionStorageKeys.maximumWarnedFor);
  for (const key of [
    sessionStorageKeys.lastActivity,
    sessionStorageKeys.lastVisible,
    sessionStorageKeys.lastRefresh,
    // Last: other tabs that see the start time see a complete record.
    sessionStorageKeys.startTime,
  ]) {
    writeTime(store, key, now);
  }
}

/**
 * At sign-in: keeps a live session's `sessionStartTime` (another tab signed in minutes ago, so the
 * 60 minutes still count from then); starts a new one when there is none or the stored one is
 * over (left behind by a browser closed without logging out).
 */
export function startSessionRecord(store: KeyValueStore, now: number, tabId: string): void {
  const record = readSessionRecord(store);
  const alive =
    record.startedAt !== null &&
    evaluateSession(now, record, { tabId, visible: false, refreshing: false, holdingActivity: false })
      .kind === 'continue';
  if (!alive) {
    beginSessionRecord(store, now);
    return;
  }
  // Signing in is activity, and it just gave this tab fresh tokens.
  store.remove(sessionStorageKeys.ended);
  writeTime(store, sessionStorageKeys.lastActivity, now);
  writeTime(store, sessionStorageKeys.lastVisible, now);
  writeTime(store, sessionStorageKeys.lastRefresh, now);
}

/**
 * Ends the session for every tab: the reason first (the other tabs act on that event and ignore
 * the removals that follow), then the clocks. `lastActiveRoute` and `lastActiveTab` stay: they
 * are not secrets, and they say where the user was when they sign in again.
 */
export function endSessionRecord(
  store: KeyValueStore,
  reason: SessionEndReason,
  now: number,
  tabId: string,
): void {
  store.set(sessionStorageKeys.ended, JSON.stringify({ reason, at: now, tab: tabId }));
  for (const key of [
    sessionStorageKeys.startTime,
    sessionStorageKeys.lastActivity,
    sessionStorageKeys.lastVisible,
    sessionStorageKeys.lastRefresh,
    sessionStorageKeys.inactivityWarnedFor,
    sessionStorageKeys.maximumWarnedFor,
  ]) {
    store.remove(key);
  }
}

/** The reason in an end marker (a `storage` event's new value, or the stored one). */
export function parseSessionEnd(raw: string | null): SessionEndReason | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    const reason =
      typeof value === 'object' && value !== null ? (value as { reason?: unknown }).reason : null;
    return isSessionEndReason(reason) ? reason : 'ended';
  } catch {
    return 'ended';
  }
}
