// The German build of the web app (ADR 0089): every import that resolves to a module of
// `web/src/content/` resolves instead to its twin under `web/src/content/de/`, when it has one.
// Components keep importing `#web/content/...`; each language's build carries that language's
// copy and nothing else. A content module without a twin is language-neutral (company facts,
// shared types); the translation test lists which may be.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type { Locale } from '../src/config/locale.ts';

const contentDir = fileURLToPath(new URL('../src/content/', import.meta.url));

/** The twin of a content module in `locale`, or undefined when it has none (or is one). */
export function localizedContentFile(file: string, locale: Locale): string | undefined {
  if (locale === 'en' || !file.startsWith(contentDir)) return undefined;
  const relative = file.slice(contentDir.length);
  if (relative.startsWith(`${locale}/`) || relative.startsWith(`${locale}${path.sep}`)) return undefined;
  const twin = path.join(contentDir, locale, relative);
  return existsSync(twin) ? twin : undefined;
}

/** Swaps content modules for the language's twins, and states the build's language. */
export function localePlugin(locale: Locale): Plugin {
  return {
    name: 'locale',
    enforce: 'pre',
    config: () => ({ define: { __BUILD_LOCALE__: JSON.stringify(locale) } }),
    async resolveId(source, importer, options) {
      if (locale === 'en' || !importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return resolved;
      const [file, query] = resolved.id.split('?');
      const twin = file ? localizedContentFile(file, locale) : undefined;
      return twin ? { ...resolved, id: query ? `${twin}?${query}` : twin } : resolved;
    },
  };
}
