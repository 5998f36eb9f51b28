import { describe, expect, it } from 'vitest';
import {
  evaluateSession,
  type SessionRecord,
  sessionEndMessage,
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
const visible: TabState = { tabId: 'A', visible: true, refreshing: false, holdingActivity: false };
const hidden: TabState = { tabId: 'A', visible: false, refreshing: false, holdingActivity: false };
/** The identity verification widget is open in this tab (ADR 0057). */
const holding: TabState = { ...visible, holdingActivity: true };

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
      // On screen until answered ("Stay signed in"), not for 5 s.
      warnings: [{ kind: 'inactivity', message: 'You will be logged out in 1 minute', durationMs: null }],
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
    const other: TabState = { tabId: 'B', visible: false, refreshing: false, holdingActivity: false };
    expect(step(5 * minute, active, other)).toMatchObject({ refresh: false, nextCheckAt: T0 + 5.5 * minute });
    expect(step(5.5 * minute, active, other)).toMatchObject({ refresh: true });
    expect(step(5 * minute, active, { ...visible, refreshing: true })).toMatchObject({ refresh: false });
  });

  describe('while this tab holds activity (the verification widget is open)', () => {
    it('neither warns of nor logs out for inactivity, even 20 minutes after the last activity', () => {
      for (const at of [4 * minute, 5 * minute, 20 * minute]) {
        const now = step(at, { lastVisibleAt: T0 + at, lastRefreshAt: T0 + at }, holding);
        expect(now).toMatchObject({ kind: 'continue', warnings: [] });
      }
    });

    it('asks the tab to write activity every 30 s, so the other tabs agree the user is here', () => {
      expect(step(10_000, {}, holding)).toMatchObject({ activity: false, nextCheckAt: T0 + 30_000 });
      expect(step(15_000, {}, holding)).toMatchObject({ activity: true, nextCheckAt: T0 + 45_000 });
      expect(step(20 * minute, { lastVisibleAt: T0 + 20 * minute }, holding)).toMatchObject({
        activity: true,
      });
      // Not held, or hidden: never.
      expect(step(15_000)).toMatchObject({ activity: false });
      expect(step(15_000, {}, { ...holding, visible: false })).toMatchObject({ activity: false });
    });

    it('still ends the session at the 60-minute maximum, with its warning 5 minutes before', () => {
      const present = (at: number) => ({ lastVisibleAt: T0 + at, lastRefreshAt: T0 + at });
      expect(step(55 * minute, present(55 * minute), holding)).toMatchObject({
        warnings: [{ kind: 'maximum', message: 'Session expiring soon', durationMs: 10000 }],
      });
      expect(step(60 * minute - 1, present(60 * minute - 1), holding).kind).toBe('continue');
      expect(step(60 * minute, present(60 * minute), holding)).toMatchObject({
        kind: 'logout',
        reason: 'maximum-duration',
      });
    });

    it('keeps the hidden-tab rule: a hidden tab is judged by it, held or not', () => {
      const hiddenHolding: TabState = { ...holding, visible: false };
      expect(step(5 * minute - 1, { lastActivityAt: T0 + 4 * minute }, hiddenHolding).kind).toBe('continue');
      expect(step(5 * minute, { lastActivityAt: T0 + 4 * minute }, hiddenHolding)).toMatchObject({
        kind: 'logout',
        reason: 'hidden-tab',
      });
    });

    it('counts inactivity again once released, from the last activity (the release writes one)', () => {
      const released = { lastActivityAt: T0 + 20 * minute, lastVisibleAt: T0 + 24.9 * minute };
      expect(step(24 * minute, released)).toMatchObject({
        warnings: [{ kind: 'inactivity', durationMs: null, deadline: T0 + 25 * minute }],
      });
      expect(step(25 * minute - 1, released).kind).toBe('continue');
      expect(step(25 * minute, released)).toMatchObject({ kind: 'logout', reason: 'inactivity' });
    });
  });
});

describe('sessionEndMessage', () => {
  it('words the 60 minutes "exceeded" for an open session and "reached" for one the user comes back to', () => {
    expect(sessionEndMessage('maximum-duration')).toBe('Maximum session duration (60 minutes) exceeded');
    expect(sessionEndMessage('maximum-duration', true)).toBe('Maximum session duration (60 minutes) reached');
  });

  it('has one wording for every other reason, however the user meets it', () => {
    for (const reason of ['inactivity', 'hidden-tab', 'refresh-failed', 'signed-out', 'ended'] as const) {
      expect(sessionEndMessage(reason, true)).toBe(sessionEndMessage(reason));
    }
  });
});
