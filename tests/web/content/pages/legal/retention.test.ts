import { describe, expect, it } from 'vitest';
import { type RetentionRule, retainedUntil, retentionTable } from '#contracts/retention.ts';
import { exampleStages, parseStageConfig } from '#infra/stage-config.ts';
import { retentionDates } from '#lambdas/domain/data-rights/erasure-plan.ts';
import { cookieConsentExpiry } from '#lambdas/domain/submissions/public-forms.ts';
import { cookieConsentMonths } from '#web/content/cookie-policy-revision.ts';
import { privacyPolicy as privacyPolicyDe } from '#web/content/de/pages/legal/privacy-policy.ts';
import { policyFacts } from '#web/content/pages/legal/facts.ts';
import { privacyPolicy } from '#web/content/pages/legal/privacy-policy.ts';
import type { DocumentSection } from '#web/content/pages/types.ts';

// Retention stated once (ADR 0077): the privacy policy, the TTLs, the erasure plan and the log
// retention all say what the retention table in lambdas/contracts/retention.ts says.

const rows = Object.entries(retentionTable as Record<string, RetentionRule>);

// The policy in each language: the English text and its binding German twin (ADR 0089).
const languages = [
  {
    lang: 'en',
    policy: privacyPolicy,
    sectionId: 'retention',
    unit: { days: 'days', months: 'months', years: 'years' },
    periodPattern: /(\d+) (days|months|years)\b/g,
    auditTrail: /Audit trail of our reviewers' actions[^.]*5 years after each entry/,
    logsDeleted: (days: number) => `are deleted after ${days} days`,
  },
  {
    lang: 'de',
    policy: privacyPolicyDe,
    sectionId: 'speicherdauer',
    unit: { days: 'Tage', months: 'Monate', years: 'Jahre' },
    periodPattern: /(\d+) (Tage|Monate|Jahre)\b/g,
    auditTrail: /Protokoll der Prüfentscheidungen unseres Teams[^.]*5 Jahre nach dem Eintrag/,
    logsDeleted: (days: number) => `werden nach ${days} Tagen gelöscht`,
  },
] as const;

describe.each(languages)('the privacy policy ($lang) and the retention table', (language) => {
  const { lang, unit } = language;
  const policyText = JSON.stringify(language.policy);
  const items =
    (language.policy.sections as readonly DocumentSection[]).find((s) => s.id === language.sectionId)
      ?.items ?? [];

  it('lists every row of the table (not a planned one) once, with its period, starting point and legal ground', () => {
    const listed = rows.filter(([, rule]) => !rule.planned);
    expect(items).toHaveLength(listed.length);
    listed.forEach(([kind, rule], index) => {
      const item = items[index] ?? '';
      expect(item, kind).toContain(rule.what[lang]);
      if (rule.period)
        expect(item, kind).toContain(`${rule.period.amount} ${unit[rule.period.unit]} ${rule.counted[lang]}`);
      else expect(item, kind).toContain(rule.counted[lang]);
      expect(item, kind).toContain(`(${rule.basis[lang]})`);
    });
  });

  it('states no other period in its retention list than the table has', () => {
    const stated = items.flatMap((item) =>
      [...item.matchAll(language.periodPattern)].map(([, amount, u]) => `${amount} ${u}`),
    );
    const table = rows.flatMap(([, rule]) =>
      rule.period ? [`${rule.period.amount} ${unit[rule.period.unit]}`] : [],
    );
    for (const period of stated) expect(table).toContain(period);
  });

  it('lists the admin audit trail, built now, with its five years after each entry', () => {
    expect('planned' in retentionTable.auditTrail).toBe(false);
    expect(policyText).toContain(retentionTable.auditTrail.what[lang]);
    expect(policyText).toMatch(language.auditTrail);
  });

  it('quotes the logs’ period where it describes the server logs', () => {
    expect(policyText).toContain(language.logsDeleted(retentionTable.logs.period.amount));
    expect(policyFacts.websiteLogRetentionDays).toBe(retentionTable.logs.period.amount);
  });
});

describe('what enforces the table', () => {
  const at = new Date('2026-02-28T12:00:00.000Z');
  const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

  it('erasure keeps the consent ledger, the KYC records and the request for the table’s periods', () => {
    expect(retentionDates(at)).toEqual({
      consentLedger: retainedUntil(at, retentionTable.consentRecords.period),
      kycState: retainedUntil(at, retentionTable.kycEvidence.period),
      deletionRequest: retainedUntil(at, retentionTable.deletionRequests.period),
    });
    expect(retentionDates(at).kycState.toISOString()).toBe(
      `${2026 + retentionTable.kycEvidence.period.amount}-02-28T12:00:00.000Z`,
    );
  });

  it('a cookie choice’s record expires, and the banner asks again, after the table’s months', () => {
    expect(cookieConsentExpiry(at)).toBe(epoch(new Date('2027-03-28T12:00:00.000Z')));
    expect(retentionTable.cookieChoices.period).toEqual({ amount: 13, unit: 'months' });
    // The banner keeps its own copy (it is in every page's initial JS, the table is not).
    expect(cookieConsentMonths).toBe(retentionTable.cookieChoices.period.amount);
  });

  it('a stage keeps its logs the table’s days by default, and no longer', () => {
    const dev = exampleStages.dev;
    expect(parseStageConfig(dev).logRetentionDays).toBe(retentionTable.logs.period.amount);
    expect(() => parseStageConfig({ ...dev, logRetentionDays: 365 })).toThrow(/retention table/);
    expect(parseStageConfig({ ...dev, logRetentionDays: 14 }).logRetentionDays).toBe(14);
  });
});
