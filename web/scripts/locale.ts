// The German build of the web app (ADR 0089): every import that resolves to a module of
// `web/src/content/` resolves instead to its twin under `web/src/content/de/`, when it has one.
// Components keep importing `#web/content/...`; each language's build carries that language's
// copy and nothing else. A content module without a twin is language-neutral (company facts,
// shared types); the translation test lists which may be.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const sourceModule = /\.(ts|tsx)$/;
/** The dev server's German module graph: every source module of it carries this query. */
const devLocaleQuery = 'lang=de';
const devEntry = '/src/main.tsx';

/** The German twin of a module of the dev server's German graph (`?lang=de`), or the module itself. */
function devGermanId(file: string): string | undefined {
  if (!file.startsWith(repoRoot) || file.includes('/node_modules/') || !sourceModule.test(file))
    return undefined;
  return `${localizedContentFile(file, 'de') ?? file}?${devLocaleQuery}`;
}

/**
 * Swaps content modules for the language's twins, and states the build's language.
 *
 * The dev server (`npm start`) serves both languages from one Vite server: a page under `/de`, or a
 * signed-in screen when German was chosen, starts `/src/main.tsx?lang=de`, and every source module
 * that graph imports is resolved with the same query (German content twins swapped in, the build
 * locale stated as German), while React and the other dependencies stay shared. A production build
 * is one language per build (web/scripts/build.ts).
 */
export function localePlugin(
  locale: Locale,
  options: { publicPaths?: readonly string[]; germanMessages?: Readonly<Record<string, string>> } = {},
): Plugin {
  let serving = false;
  const german = options.germanMessages ?? {};
  return {
    name: 'locale',
    enforce: 'pre',
    config: (_config, env) => {
      serving = env.command === 'serve';
      return { define: { __BUILD_LOCALE__: JSON.stringify(locale) } };
    },
    async resolveId(source, importer, resolveOptions) {
      if (!importer) return null;
      const germanGraph = serving && locale === 'en' && importer.includes(`?${devLocaleQuery}`);
      if (locale === 'en' && !germanGraph) return null;
      const resolved = await this.resolve(source, importer, { ...resolveOptions, skipSelf: true });
      if (!resolved || resolved.external) return resolved;
      const [file, query] = resolved.id.split('?');
      if (germanGraph) {
        const id = file && !query ? devGermanId(file) : undefined;
        return id ? { ...resolved, id } : resolved;
      }
      const twin = file ? localizedContentFile(file, locale) : undefined;
      return twin ? { ...resolved, id: query ? `${twin}?${query}` : twin } : resolved;
    },
    load(id) {
      // The German graph's modules are files on disk; Vite's own loader does not read ids with an
      // unknown query, so read them here.
      if (!serving || !id.endsWith(`?${devLocaleQuery}`)) return null;
      return readFile(id.slice(0, -devLocaleQuery.length - 1), 'utf8');
    },
    transform(code, id) {
      const [file = '', query] = id.split('?');
      const germanGraph = serving && query === devLocaleQuery;
      if (!(locale === 'de' || germanGraph)) return null;
      let out = code;
      if (germanGraph) out = out.replace(/(?<!declare const )__BUILD_LOCALE__/g, JSON.stringify('de'));
      if (isContractWithFieldMessages(file)) out = germanContractMessages(out, german).code;
      return out === code ? null : out;
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!serving || locale !== 'en') return html;
        // The page's language decides the graph: a page under /de, or (a signed-in screen, the same
        // path in both languages) the head script's choice. English public pages stay English.
        const english = JSON.stringify(options.publicPaths ?? []);
        const loader = `const p=location.pathname.replace(/\\/+$/,'')||'/',d=document.documentElement,de=p==='/de'||p.startsWith('/de/')||(!${english}.includes(p)&&d.dataset.locale==='de');if(de)d.lang='de';import(/* @vite-ignore */de?'${devEntry}?${devLocaleQuery}':'${devEntry}')`;
        return html.replace(
          `<script type="module" src="${devEntry}"></script>`,
          () => `<script type="module">${loader}</script>`,
        );
      },
    },
  };
}

const contractsDir = fileURLToPath(new URL('../../lambdas/contracts/', import.meta.url));
/** The contract modules that hold no field message of their own (the problems' texts, and the German). */
const contractsWithoutFieldMessages = new Set(['problem-messages.ts', 'messages-de.ts']);

/**
 * The contracts' field messages, written in German (ADR 0089). The schemas the web validates with
 * are the API's own (#contracts/*), built from English message literals; the German build writes
 * each literal that `germanLiterals` (#contracts/messages-de.ts, which the API answers German
 * problems from) translates as its German, so the form shows what the API would answer, and the
 * page carries one language. A sentence-like literal (a space, 12 characters or more) only: an
 * enum value is never a message.
 */
export function germanContractMessages(
  code: string,
  pairs: Readonly<Record<string, string>>,
): { code: string; replaced: string[] } {
  const replaced: string[] = [];
  let out = code;
  for (const [english, german] of Object.entries(pairs)) {
    if (english.length < 12 || !english.includes(' ')) continue;
    for (const quote of ["'", '"', '`']) {
      if (english.includes(quote) || (quote === '`' && english.includes('${'))) continue;
      const literal = `${quote}${english}${quote}`;
      if (!out.includes(literal)) continue;
      out = out.split(literal).join(JSON.stringify(german));
      replaced.push(english);
    }
  }
  return { code: out, replaced };
}

function isContractWithFieldMessages(file: string): boolean {
  return file.startsWith(contractsDir) && !contractsWithoutFieldMessages.has(file.slice(contractsDir.length));
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
