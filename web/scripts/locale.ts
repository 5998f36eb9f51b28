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

/** The manifest and chunk list of another language's build, beside the English ones in `.vite/`. */
export const localeManifestFile = (locale: Locale) => `.vite/manifest.${locale}.json`;
export const localeChunkModulesFile = (locale: Locale) => `.vite/chunk-modules.${locale}.json`;

const entryAttribute = /<script data-entry="([^"]+)">/;

/**
 * Merges another language's build (`from`) into the English one (`into`): its pages (written under
 * `/<locale>/` by its prerender), its chunks (hashed names: the ones both builds share are the same
 * file), its not-found page and app shell as `/<locale>/404.html` and `/<locale>/app.html`, its
 * manifest and chunk list under their language's names, and its entry as `data-entry-<locale>` on
 * the English app shell, whose loader starts the reader's language (web/inline-scripts.ts). Both
 * builds must have the same inline scripts (one CSP).
 */
export async function mergeLocaleBuild(
  into: string,
  from: string,
  locale: Exclude<Locale, 'en'>,
): Promise<void> {
  const { cp, readFile, rename, writeFile, mkdir } = await import('node:fs/promises');
  const csp = await readFile(path.join(into, 'csp-hashes.json'), 'utf8');
  if ((await readFile(path.join(from, 'csp-hashes.json'), 'utf8')) !== csp) {
    throw new Error(`the ${locale} build's inline scripts differ from the English build's (csp-hashes.json)`);
  }
  await cp(path.join(from, 'assets'), path.join(into, 'assets'), { recursive: true, force: false });
  await cp(path.join(from, locale), path.join(into, locale), {
    recursive: true,
    errorOnExist: true,
    force: false,
  });
  await mkdir(path.join(into, locale), { recursive: true });
  await rename(path.join(from, '404.html'), path.join(into, locale, '404.html'));
  await rename(path.join(from, 'app.html'), path.join(into, locale, 'app.html'));
  await rename(path.join(from, '.vite', 'manifest.json'), path.join(into, localeManifestFile(locale)));
  await rename(
    path.join(from, '.vite', 'chunk-modules.json'),
    path.join(into, localeChunkModulesFile(locale)),
  );
  const theirs = JSON.parse(await readFile(path.join(from, 'prerendered.json'), 'utf8')) as unknown[];
  const ours = JSON.parse(await readFile(path.join(into, 'prerendered.json'), 'utf8')) as unknown[];
  await writeFile(path.join(into, 'prerendered.json'), `${JSON.stringify([...ours, ...theirs], null, 2)}\n`);
  // The app shell serves every signed-in path in both languages: it names both entries.
  const theirShell = await readFile(path.join(into, locale, 'app.html'), 'utf8');
  const theirEntry = theirShell.match(entryAttribute)?.[1];
  if (!theirEntry) throw new Error(`the ${locale} app shell names no entry`);
  const shell = path.join(into, 'app.html');
  const html = await readFile(shell, 'utf8');
  if (!entryAttribute.test(html)) throw new Error('app.html names no entry');
  await writeFile(
    shell,
    html.replace(entryAttribute, (tag) => tag.replace('>', ` data-entry-${locale}="${theirEntry}">`)),
  );
}
