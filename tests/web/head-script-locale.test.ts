// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { headScript } from '../../web/inline-scripts.ts';

// The head script takes a reader to their language before the first paint (ADR 0089): a stored
// choice (the switcher's, under `locale`) moves a prerendered page to its version in that language;
// without one only the English home follows the browser's languages; the app shell starts the
// chosen language's entry. Run with its own location, navigator and storage.

const html = document.documentElement;

interface Visit {
  /** The URL's path, search and fragment. */
  url: string;
  /** `<html lang>` of the served page. */
  lang: string;
  /** `data-prerendered`: the page's path, '' for the 404 page, undefined for the app shell. */
  prerendered: string | undefined;
  stored?: string | null;
  languages?: string[];
  storageThrows?: boolean;
}

function visit({ url, lang, prerendered, stored = null, languages = ['en-US', 'en'], storageThrows }: Visit) {
  const parsed = new URL(url, 'https://platform.example');
  html.lang = lang;
  if (prerendered === undefined) delete html.dataset.prerendered;
  else html.dataset.prerendered = prerendered;
  delete html.dataset.stale;
  delete html.dataset.locale;
  const replace = vi.fn();
  const location = {
    href: parsed.href,
    pathname: parsed.pathname,
    search: parsed.search,
    hash: parsed.hash,
    replace,
  };
  let current = stored;
  const storage = {
    getItem: (key: string) => {
      if (storageThrows) throw new Error('storage disabled');
      return key === 'locale' ? current : null;
    },
    setItem: (key: string, value: string) => {
      if (storageThrows) throw new Error('storage disabled');
      if (key === 'locale') current = value;
    },
  };
  const replaceState = vi.fn();
  new Function('location', 'navigator', 'localStorage', 'history', headScript)(
    location,
    { languages },
    storage,
    { state: null, replaceState },
  );
  return {
    stored: current,
    urlNow: replaceState.mock.calls[0]?.[2] as string | undefined,
    redirectedTo: replace.mock.calls[0]?.[0] as string | undefined,
    stale: html.dataset.stale !== undefined,
    entryLocale: html.dataset.locale,
    lang: html.lang,
  };
}

beforeEach(() => vi.stubGlobal('matchMedia', () => ({ matches: false })));
afterEach(() => vi.unstubAllGlobals());

describe('head script: the reader’s language', () => {
  it('moves a page to its version in the stored language, keeping the query and fragment', () => {
    expect(
      visit({ url: '/pricing?utm=x#plans', lang: 'en', prerendered: '/pricing', stored: 'de' }).redirectedTo,
    ).toBe('/de/pricing?utm=x#plans');
    expect(visit({ url: '/', lang: 'en', prerendered: '/', stored: 'de' }).redirectedTo).toBe('/de');
    expect(
      visit({ url: '/de/pricing', lang: 'de', prerendered: '/de/pricing', stored: 'en' }).redirectedTo,
    ).toBe('/pricing');
    expect(visit({ url: '/de', lang: 'de', prerendered: '/de', stored: 'en' }).redirectedTo).toBe('/');
  });

  it('leaves a page in the stored language alone, whatever the browser says', () => {
    expect(
      visit({ url: '/de/pricing', lang: 'de', prerendered: '/de/pricing', stored: 'de' }).redirectedTo,
    ).toBeUndefined();
    expect(
      visit({ url: '/', lang: 'en', prerendered: '/', stored: 'en', languages: ['de-DE'] }).redirectedTo,
    ).toBeUndefined();
  });

  it('without a stored choice, sends only the English home to the browser’s first language the site has', () => {
    expect(visit({ url: '/', lang: 'en', prerendered: '/', languages: ['de-CH', 'en'] }).redirectedTo).toBe(
      '/de',
    );
    expect(visit({ url: '/', lang: 'en', prerendered: '/', languages: ['fr-FR', 'de'] }).redirectedTo).toBe(
      '/de',
    );
    expect(
      visit({ url: '/', lang: 'en', prerendered: '/', languages: ['en-GB', 'de'] }).redirectedTo,
    ).toBeUndefined();
    expect(
      visit({ url: '/', lang: 'en', prerendered: '/', languages: ['fr-FR'] }).redirectedTo,
    ).toBeUndefined();
    // A link to a page in one language stays in it (crawlers store nothing).
    expect(
      visit({ url: '/pricing', lang: 'en', prerendered: '/pricing', languages: ['de'] }).redirectedTo,
    ).toBeUndefined();
    expect(
      visit({ url: '/de/pricing', lang: 'de', prerendered: '/de/pricing' }).redirectedTo,
    ).toBeUndefined();
  });

  it('ignores a stored value that is no language of the site, and storage that throws', () => {
    expect(
      visit({ url: '/pricing', lang: 'en', prerendered: '/pricing', stored: 'fr' }).redirectedTo,
    ).toBeUndefined();
    expect(
      visit({ url: '/', lang: 'en', prerendered: '/', storageThrows: true, languages: ['de'] }).redirectedTo,
    ).toBe('/de');
  });

  it('stores the choice a switcher link carries (followed before the page hydrated) and removes it from the URL', () => {
    const arrived = visit({
      url: '/de/pricing?utm=x&locale=de#plans',
      lang: 'de',
      prerendered: '/de/pricing',
      stored: 'en',
    });
    expect(arrived).toMatchObject({
      redirectedTo: undefined,
      stored: 'de',
      urlNow: '/de/pricing?utm=x#plans',
    });
    // The app shell: the same path, reloaded in the other language.
    expect(
      visit({ url: '/dashboard?locale=de', lang: 'en', prerendered: undefined, stored: 'en' }),
    ).toMatchObject({
      stored: 'de',
      entryLocale: 'de',
      urlNow: '/dashboard',
    });
    // Anything else in the parameter is ignored and left alone.
    expect(visit({ url: '/pricing?locale=fr', lang: 'en', prerendered: '/pricing' })).toMatchObject({
      stored: null,
      urlNow: undefined,
      redirectedTo: undefined,
    });
  });

  it('never moves the 404 page or HTML made for another URL', () => {
    expect(visit({ url: '/nope', lang: 'en', prerendered: '', stored: 'de' }).redirectedTo).toBeUndefined();
    const stale = visit({ url: '/dashboard', lang: 'en', prerendered: '/', stored: 'de' });
    expect(stale.redirectedTo).toBeUndefined();
    expect(stale.stale).toBe(true);
  });

  it('starts the app shell in the chosen language: hidden until React renders it, the German entry named', () => {
    expect(visit({ url: '/dashboard', lang: 'en', prerendered: undefined, stored: 'de' })).toMatchObject({
      redirectedTo: undefined,
      stale: true,
      entryLocale: 'de',
      lang: 'de',
    });
    expect(
      visit({ url: '/dashboard', lang: 'en', prerendered: undefined, languages: ['de-AT'] }).entryLocale,
    ).toBe('de');
    expect(
      visit({ url: '/dashboard', lang: 'en', prerendered: undefined, stored: 'en', languages: ['de'] }),
    ).toMatchObject({
      redirectedTo: undefined,
      stale: false,
      entryLocale: undefined,
      lang: 'en',
    });
  });
});
