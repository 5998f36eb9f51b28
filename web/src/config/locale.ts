// The product's two languages (issue 28, ADR 0089). Each language is its own build of the web app:
// the build for German swaps every module of `web/src/content/` for its twin in
// `web/src/content/de/` (web/scripts/locale.ts), so a page carries one language's copy and no
// translation machinery. This module says which build is running and where each language's
// public pages live: English at today's paths, German under `/de`.

export const locales = ['en', 'de'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** Where the visitor's choice is kept (the switcher writes it; the head script reads it). */
export const localeStorageKey = 'locale';

/** The path prefix of each language's public pages. */
export const localePrefixes: Readonly<Record<Locale, string>> = { en: '', de: '/de' };

// Replaced by the Vite build (web/vite.config.ts `define`); absent (English) under Node and Vitest.
declare const __BUILD_LOCALE__: string | undefined;

/** The language this build renders. */
export const buildLocale: Locale =
  typeof __BUILD_LOCALE__ === 'string' && __BUILD_LOCALE__ === 'de' ? 'de' : 'en';

/** A public page's path in a language: `/pricing` -> `/de/pricing`, `/` -> `/de`. */
export function localizedPath(path: string, locale: Locale): string {
  const prefix = localePrefixes[locale];
  return prefix && path === '/' ? prefix : `${prefix}${path}`;
}

/**
 * The language of a public path and its path without the prefix: `/de/pricing` -> de, `/pricing`.
 * (Written for the one prefixed language: every page carries this function.)
 */
export function splitLocalizedPath(path: string): { locale: Locale; path: string } {
  const prefix = localePrefixes.de;
  return path === prefix || path.startsWith(`${prefix}/`)
    ? { locale: 'de', path: path.slice(prefix.length) || '/' }
    : { locale: defaultLocale, path };
}
