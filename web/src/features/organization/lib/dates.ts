// Dates on the team page, in the reader's own locale and time zone; the exact instant stays in
// each <time> element's dateTime.
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function format(iso: string, formatter: Intl.DateTimeFormat): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatter.format(date);
}

export const formatDay = (iso: string) => format(iso, day);
export const formatDayAndTime = (iso: string) => format(iso, dayAndTime);
