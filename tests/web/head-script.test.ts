// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cookieConsentMonths, cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { readConsent } from '#web/features/cookie-consent/lib/consent-store.ts';
import { consentKeys } from '#web/features/cookie-consent/lib/keys.ts';
import { headScript } from '../../web/inline-scripts.ts';

// The head script decides before the first paint whether the prerendered cookie banner shows; the
// store decides again once React runs. They must agree, or the banner pops up late or vanishes.

const html = document.documentElement;

function runHeadScript(): boolean {
  new Function(headScript)();
  return html.dataset.cookieBanner !== undefined;
}

const choice = JSON.stringify({ essential: true, analytics: false, marketing: true, personalization: false });
const monthsAgo = (months: number, days = 0) => {
  const date = new Date();
  date.setMonth(date.getMonth() - months);
  date.setDate(date.getDate() - days);
  return date.toISOString();
};

const cases: [string, Record<string, string>][] = [
  ['nothing stored', {}],
  [
    'a current choice',
    {
      [consentKeys.consent]: choice,
      [consentKeys.date]: monthsAgo(0),
      [consentKeys.revision]: cookiePolicyRevision,
    },
  ],
  [
    'a choice under another revision',
    { [consentKeys.consent]: choice, [consentKeys.date]: monthsAgo(0), [consentKeys.revision]: '2000-01-01' },
  ],
  ['a choice without its revision', { [consentKeys.consent]: choice, [consentKeys.date]: monthsAgo(0) }],
  [
    'a choice just inside its lifetime',
    {
      [consentKeys.consent]: choice,
      [consentKeys.date]: monthsAgo(cookieConsentMonths - 1, 27),
      [consentKeys.revision]: cookiePolicyRevision,
    },
  ],
  [
    'a choice older than its lifetime',
    {
      [consentKeys.consent]: choice,
      [consentKeys.date]: monthsAgo(cookieConsentMonths, 1),
      [consentKeys.revision]: cookiePolicyRevision,
    },
  ],
  [
    'a choice with an unreadable date',
    {
      [consentKeys.consent]: choice,
      [consentKeys.date]: 'yesterday-ish',
      [consentKeys.revision]: cookiePolicyRevision,
    },
  ],
  [
    'a date and revision but no choice',
    { [consentKeys.date]: monthsAgo(0), [consentKeys.revision]: cookiePolicyRevision },
  ],
];

beforeEach(() => {
  vi.stubGlobal('matchMedia', () => ({ matches: false }));
  localStorage.clear();
  delete html.dataset.cookieBanner;
});
afterEach(() => vi.unstubAllGlobals());

describe('head script: the cookie banner at first paint', () => {
  it.each(cases)('agrees with the consent store for %s', (_name, stored) => {
    for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
    expect(runHeadScript()).toBe(readConsent() === null);
  });

  it('shows the banner to a first-time visitor and hides it for a current choice', () => {
    expect(runHeadScript()).toBe(true);
    localStorage.setItem(consentKeys.consent, choice);
    localStorage.setItem(consentKeys.date, new Date().toISOString());
    localStorage.setItem(consentKeys.revision, cookiePolicyRevision);
    delete html.dataset.cookieBanner;
    expect(runHeadScript()).toBe(false);
  });

  it('shows the banner when storage cannot be read at all', () => {
    vi.stubGlobal('localStorage', {
      getItem() {
        throw new Error('SecurityError');
      },
    });
    expect(runHeadScript()).toBe(true);
  });

  it('leaves only a stored choice that is not valid JSON to the store (the banner then opens after hydration)', () => {
    localStorage.setItem(consentKeys.consent, '{not json');
    localStorage.setItem(consentKeys.date, new Date().toISOString());
    localStorage.setItem(consentKeys.revision, cookiePolicyRevision);
    expect(runHeadScript()).toBe(false);
    expect(readConsent()).toBeNull();
  });
});
