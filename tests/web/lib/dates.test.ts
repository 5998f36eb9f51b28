import { describe, expect, it } from 'vitest';
import { verificationStatusNames } from '#web/content/account.ts';
import { formatCalendarDate, formatDateTime, formatDay, formatTime } from '#web/lib/dates.ts';

// One way of writing dates on every screen (ADR 0087): exact strings for a fixed instant and zone.
const instant = '2026-11-27T00:50:00.000Z';
const nbsp = '\u00a0';

describe('dates, written one way', () => {
  it('writes an instant as "Nov 27, 2026, 12:50 AM" in English, in the zone given', () => {
    expect(formatDateTime(instant, { timeZone: 'UTC' })).toBe(`Nov 27, 2026, 12:50${nbsp}AM`);
    expect(formatDateTime(instant, { timeZone: 'Europe/Berlin' })).toBe(`Nov 27, 2026, 1:50${nbsp}AM`);
    expect(formatDateTime(instant, { timeZone: 'America/New_York' })).toBe(`Nov 26, 2026, 7:50${nbsp}PM`);
    expect(formatDateTime(new Date(instant), { locale: 'en', timeZone: 'UTC' })).toBe(
      `Nov 27, 2026, 12:50${nbsp}AM`,
    );
  });

  it('writes the day and the time of day alone the same way', () => {
    expect(formatDay(instant, { timeZone: 'UTC' })).toBe('Nov 27, 2026');
    expect(formatTime(instant, { timeZone: 'UTC' })).toBe(`12:50${nbsp}AM`);
    expect(formatTime('2026-11-27T13:05:00Z', { timeZone: 'UTC' })).toBe(`1:05${nbsp}PM`);
  });

  it('is ready for German: the locale is a parameter', () => {
    expect(formatDateTime(instant, { locale: 'de', timeZone: 'UTC' })).toBe('27.11.2026, 00:50');
    expect(formatDay(instant, { locale: 'de', timeZone: 'UTC' })).toBe('27.11.2026');
    expect(formatTime(instant, { locale: 'de', timeZone: 'UTC' })).toBe('00:50');
    expect(formatCalendarDate('2025-06-08', 'de')).toBe('8. Juni 2025');
  });

  it('writes a calendar date as that date in every zone', () => {
    expect(formatCalendarDate('2025-06-08')).toBe('June 8, 2025');
    expect(formatCalendarDate('2026-12-04')).toBe('December 4, 2026');
  });

  it('shows what it cannot read as given, never "Invalid Date"', () => {
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatCalendarDate('soon')).toBe('soon');
    expect(formatCalendarDate('2026-13-01')).toBe('2026-13-01');
  });
});

describe('the verification status in words', () => {
  it('says "Not Started", not the jargon "Pending Submission"', () => {
    expect(verificationStatusNames).toEqual({
      not_started: 'Not Started',
      pending: 'Under Review',
      approved: 'Verified',
      rejected: 'Not Approved',
    });
  });
});
