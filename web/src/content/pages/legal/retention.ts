import { type RetentionRule, type RetentionUnit, retentionTable } from '#contracts/retention.ts';

// The privacy policy's retention list, generated from the retention table (ADR 0077), so the policy
// cannot state a period, a starting point or a legal ground the backend does not apply. A row
// marked `planned` (built by a later issue item) is left out until it exists.

const units: Record<'de' | 'en', Record<RetentionUnit, [one: string, many: string]>> = {
  de: { days: ['Tag', 'Tage'], months: ['Monat', 'Monate'], years: ['Jahr', 'Jahre'] },
  en: { days: ['day', 'days'], months: ['month', 'months'], years: ['year', 'years'] },
};
const about = { de: 'etwa ', en: 'about ' };

/** "10 Jahre", "about 7 years": a row's period as the policy says it. */
export function periodText(period: NonNullable<RetentionRule['period']>, lang: 'de' | 'en'): string {
  const [one, many] = units[lang][period.unit];
  return `${period.approximate ? about[lang] : ''}${period.amount} ${period.amount === 1 ? one : many}`;
}

/** One row as the policy's list item: what, how long from when, the legal ground, and a note. */
export function retentionSentence(rule: RetentionRule, lang: 'de' | 'en'): string {
  const how = rule.period ? `${periodText(rule.period, lang)} ${rule.counted[lang]}` : rule.counted[lang];
  return `${rule.what[lang]}: ${how} (${rule.basis[lang]}).${rule.note ? ` ${rule.note[lang]}` : ''}`;
}

/** The rows the policy lists, in the table's order. */
export function retentionSentences(lang: 'de' | 'en'): string[] {
  return Object.values(retentionTable as Record<string, RetentionRule>)
    .filter((rule) => !rule.planned)
    .map((rule) => retentionSentence(rule, lang));
}
