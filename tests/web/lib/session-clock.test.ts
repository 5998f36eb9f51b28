import { describe, expect, it } from 'vitest';
import { sessionEndsAt } from '#web/lib/session-clock.ts';

// The session's clock as public pages read it (ADR 0085): the same record the session rules keep.

const T0 = Date.UTC(2026, 0, 6, 9, 0, 0);
const minute = 60_000;

const record = (entries: Record<string, string>) => ({ get: (key: string) => entries[key] ?? null });

describe('sessionEndsAt', () => {
  it('is null without a session: never signed in, logged out, or ended in another tab', () => {
    expect(sessionEndsAt(record({}))).toBeNull();
    expect(
      sessionEndsAt(record({ sessionLastActivity: String(T0), sessionEnded: '{"reason":"signed-out"}' })),
    ).toBeNull();
  });

  it('is 60 minutes after sign-in for a session in use', () => {
    expect(
      sessionEndsAt(record({ sessionStartTime: String(T0), sessionLastActivity: String(T0 + 58 * minute) })),
    ).toBe(T0 + 60 * minute);
  });

  it('is 5 minutes after the last activity when that comes first', () => {
    expect(
      sessionEndsAt(record({ sessionStartTime: String(T0), sessionLastActivity: String(T0 + 10 * minute) })),
    ).toBe(T0 + 15 * minute);
    // No activity recorded yet: counted from sign-in.
    expect(sessionEndsAt(record({ sessionStartTime: String(T0) }))).toBe(T0 + 5 * minute);
  });

  it('ignores a start time that is not one', () => {
    expect(sessionEndsAt(record({ sessionStartTime: 'soon' }))).toBeNull();
  });
});
