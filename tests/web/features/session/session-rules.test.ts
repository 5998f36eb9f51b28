import { describe, expect, it } from 'vitest';
import {
  evaluateSession,
  type SessionRecord,
  type TabState,
} from '#web/features/session/lib/session-rules.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const minute = 60_000;

const fresh: SessionRecord = {
  startedAt: T0,
  lastActivityAt: T0,
  lastVisibleAt: T0,
  lastRefreshAt: T0,
  lastActiveTab: 'A',
  inactivityWarnedFor: null,
  maximumWarnedFor: null,
};
const visible: TabState = { tabId: 'A', visible: true, refreshing: false };
const hidden: TabState = { tabId: 'A', visible: false, refreshing: false };

function step(offsetMs: number, record: Partial<SessionRecord> = {}, tab: TabState = visible) {
  return evaluateSession(T0 + offsetMs, { ...fresh, ...record }, tab);
}

describe('evaluateSession', () => {
  it.each([
    ['inactivity', visible, {}, 5 * minute, 'Logged out due to 5 minutes of inactivity'],
    ['hidden-tab', hidden, {}, 5 * minute, 'Logged out due to tab being inactive for 5 minutes'],
    [
      'maximum-duration',
      visible,
      { lastActivityAt: T0 + 58 * minute, lastVisibleAt: T0 + 59 * minute, lastRefreshAt: T0 + 58 * minute },
      60 * minute,
      'Maximum session duration (60 minutes) exceeded',
    ],
  ] as const)(
    'ends the session for %s exactly at its deadline, not a millisecond before',
    (reason, tab, record, deadline, message) => {
      expect(step(deadline - 1, record, tab).kind).toBe('continue');
      expect(step(deadline, record, tab)).toEqual({ kind: 'logout', reason, message });
    },
  );

  it('says the rule whose deadline passed first, and the maximum on a tie', () => {
    // Back from a long sleep: both passed, inactivity (5 min) long before the maximum (60 min).
    expect(step(3 * 60 * minute)).toMatchObject({ reason: 'inactivity' });
    expect(
      step(60 * minute, { lastActivityAt: T0 + 55 * minute, lastRefreshAt: T0 + 55 * minute }),
    ).toMatchObject({
      reason: 'maximum-duration',
    });
  });

  it('ends a session whose record vanished', () => {
    expect(step(minute, { startedAt: null })).toMatchObject({ kind: 'logout', reason: 'ended' });
  });

  it('warns only in a visible tab, once per deadline', () => {
    expect(step(4 * minute)).toMatchObject({
      warnings: [{ kind: 'inactivity', message: 'You will be logged out in 1 minute', durationMs: 5000 }],
    });
    expect(step(4 * minute, { inactivityWarnedFor: T0 + 5 * minute })).toMatchObject({ warnings: [] });
    expect(step(4 * minute, {}, hidden)).toMatchObject({ warnings: [] });
    const late = { lastActivityAt: T0 + 54 * minute, lastVisibleAt: T0 + 55 * minute };
    expect(step(55 * minute - 1, late)).toMatchObject({ warnings: [] });
    expect(step(55 * minute, late)).toMatchObject({
      warnings: [{ kind: 'maximum', message: 'Session expiring soon', durationMs: 10000 }],
    });
  });

  it('names the next moment worth looking at', () => {
    // Visible: the heartbeat (30 s) comes before the inactivity warning (4 min).
    expect(step(0)).toMatchObject({ nextCheckAt: T0 + 30_000, heartbeat: false });
    expect(step(20_000)).toMatchObject({ nextCheckAt: T0 + 50_000, heartbeat: true });
    // Hidden: nothing before a minute has passed (the longest sleep), then the hidden deadline.
    expect(step(0, {}, hidden)).toMatchObject({ nextCheckAt: T0 + minute });
    expect(step(4.5 * minute, {}, hidden)).toMatchObject({ nextCheckAt: T0 + 5 * minute });
    // Once the inactivity warning is out, the logout itself.
    expect(
      step(4.9 * minute, { inactivityWarnedFor: T0 + 5 * minute, lastVisibleAt: T0 + 4.9 * minute }),
    ).toMatchObject({ nextCheckAt: T0 + 5 * minute });
  });

  it('refreshes every 5 minutes in the last active tab, 30 s later in any other, never twice at once', () => {
    const active = { lastActivityAt: T0 + 4 * minute, lastVisibleAt: T0 + 4.9 * minute };
    expect(step(5 * minute - 1, active)).toMatchObject({ refresh: false });
    expect(step(5 * minute, active)).toMatchObject({ refresh: true });
    const other: TabState = { tabId: 'B', visible: false, refreshing: false };
    expect(step(5 * minute, active, other)).toMatchObject({ refresh: false, nextCheckAt: T0 + 5.5 * minute });
    expect(step(5.5 * minute, active, other)).toMatchObject({ refresh: true });
    expect(step(5 * minute, active, { ...visible, refreshing: true })).toMatchObject({ refresh: false });
  });
});
