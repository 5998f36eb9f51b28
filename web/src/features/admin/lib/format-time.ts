// Times in the queue: day, month, year and minute in the reader's time zone; the exact instant
// stays in each <time> element's dateTime.
const formatter = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const clock = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short' });

export function formatInstant(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatter.format(date);
}

export function formatClock(date: Date): string {
  return clock.format(date);
}
