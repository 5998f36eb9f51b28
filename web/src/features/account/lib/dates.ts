// Dates on the account screen, in the reader's own locale (the screen renders on the client only,
// so there is no prerendered text to match).

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// A calendar date from the API (YYYY-MM-DD, UTC) stays that date in every time zone.
const calendarDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' });

/** An ISO timestamp as date and time in the reader's locale and time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A `YYYY-MM-DD` date in the reader's locale. */
export function formatCalendarDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : calendarDate.format(date);
}
