// Dates are formatted by hand, not with Intl: the prerendered HTML (Node's ICU) and the hydrating
// browser must produce the same text, or hydration mismatches.
const months = {
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
} as const;

/** `2025-06-08` -> `June 8, 2025` (en) or `8. Juni 2025` (de). */
export function formatDate(isoDate: string, lang: 'en' | 'de' = 'en'): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  const name = months[lang][(month ?? 1) - 1] ?? '';
  return lang === 'de' ? `${day}. ${name} ${year}` : `${name} ${day}, ${year}`;
}
