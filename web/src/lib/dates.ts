// Every date and time the web app shows, written one way (ADR 0087). The language is the build's
// (ADR 0089) unless one is given; the time zone is the reader's, or one given (tests, a
// fixed office time). The exact instant stays in each <time> element's dateTime.
//
// en: "Nov 27, 2026, 12:50 AM", "Nov 27, 2026", "12:50 AM", "June 8, 2025" (a calendar date).
// de: "27.11.2026, 00:50",      "27.11.2026",   "00:50",    "8. Juni 2025".

import { buildLocale, type Locale } from '#web/config/locale.ts';

export type DateLocale = Locale;

export interface DateFormatOptions {
  /** The app's language: the build's unless said otherwise. */
  locale?: DateLocale;
  /** An IANA time zone; the reader's own unless said otherwise. */
  timeZone?: string;
}

const intlLocales: Record<DateLocale, string> = { en: 'en-US', de: 'de-DE' };

const styles = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  day: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

type Style = keyof typeof styles;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(style: Style, { locale = buildLocale, timeZone }: DateFormatOptions): Intl.DateTimeFormat {
  const key = `${style}|${locale}|${timeZone ?? ''}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(intlLocales[locale], { ...styles[style], timeZone });
    formatters.set(key, found);
  }
  return found;
}

function format(value: string | Date, style: Style, options: DateFormatOptions): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return typeof value === 'string' ? value : '';
  // ICU puts a narrow no-break space before AM/PM (older versions a plain space): one no-break
  // space, whatever the engine, so "12:50 AM" never breaks and reads the same everywhere.
  return formatter(style, options)
    .format(date)
    .replace(/[\u202f ](?=[AP]M\b)/g, '\u00a0');
}

/** An instant (ISO timestamp or Date) as day and minute: "Nov 27, 2026, 12:50 AM". */
export function formatDateTime(value: string | Date, options: DateFormatOptions = {}): string {
  return format(value, 'dateTime', options);
}

/** An instant as its day: "Nov 27, 2026". */
export function formatDay(value: string | Date, options: DateFormatOptions = {}): string {
  return format(value, 'day', options);
}

/** An instant as its minute of the day: "12:50 AM". */
export function formatTime(value: string | Date, options: DateFormatOptions = {}): string {
  return format(value, 'time', options);
}

// Calendar dates are written by hand, not with Intl: the prerendered HTML (Node's ICU) and the
// hydrating browser must produce the same text, and a `YYYY-MM-DD` date is that date in every
// time zone.
const months: Record<DateLocale, readonly string[]> = {
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  de: [
    'Januar',
    'Februar',
    'März',
    'April',
    'Mai',
    'Juni',
    'Juli',
    'August',
    'September',
    'Oktober',
    'November',
    'Dezember',
  ],
};

/** `2025-06-08` -> "June 8, 2025" (en) or "8. Juni 2025" (de); anything else as given. */
export function formatCalendarDate(isoDate: string, locale: DateLocale = buildLocale): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  const name = match ? months[locale][Number(match[2]) - 1] : undefined;
  if (!match || !name) return isoDate;
  const year = Number(match[1]);
  const day = Number(match[3]);
  return locale === 'de' ? `${day}. ${name} ${year}` : `${name} ${day}, ${year}`;
}
