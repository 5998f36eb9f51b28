// Build step (docs/design.md section 10): renders every public route to `<route>/index.html` with React
// Router's static handler and react-dom/static, around the client build's own index.html (so the
// CSS link, the entry loader and the hashed theme script are exactly the built ones). Runs as the
// last step of `vite build` (prerenderPlugin in vite.config.ts), so `npm run build` and every
// caller of the Vite build get the prerendered site.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { germanLiterals } from '../../lambdas/contracts/messages-de.ts';
import {
  type PlaceholderReport,
  placeholderReportFile,
  type SiteUrlRecord,
  siteUrlFile,
} from '../build-contract.ts';
import type { Locale } from '../src/config/locale.ts';
import { localePlugin } from './locale.ts';
import {
  checkSiteUrl,
  findPlaceholders,
  PlaceholderContentError,
  placeholdersAllowed,
  SiteUrlError,
} from './placeholders.ts';

const webRoot = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = path.resolve(webRoot, '..');

type RenderResult = { kind: 'page'; status: number; html: string } | { kind: 'redirect'; location: string };

/** What the SSR bundle (web/src/entry-server.tsx) exports. */
interface ServerEntry {
  renderRoute(path: string): Promise<RenderResult>;
  renderAppShell(): Promise<RenderResult>;
  isKnownPath(path: string): boolean;
  publicPaths: readonly { path: string; page: string; indexed: boolean }[];
  localizedPublicPaths: readonly { path: string; basePath: string; locale: Locale; indexed: boolean }[];
  buildLocale: Locale;
  appPaths: readonly string[];
  redirects: Readonly<Record<string, string>>;
  company: unknown;
  siteUrl: string;
}

/** Vite's build manifest (build.manifest): source module -> its chunk, CSS and imports. */
export type ViteManifest = Record<
  string,
  { file: string; css?: string[]; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean }
>;

export const manifestFile = '.vite/manifest.json';

export async function readManifest(outDir: string): Promise<ViteManifest> {
  return JSON.parse(await readFile(path.join(outDir, manifestFile), 'utf8')) as ViteManifest;
}

/**
 * The stylesheets a lazy page module brings (its own and its static imports'). The prerendered
 * HTML links them, so the page is styled at first paint, not when its chunk arrives.
 */
export function pageStylesheets(manifest: ViteManifest, module: string): string[] {
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    for (const file of chunk.css ?? []) css.add(`/${file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(module);
  return [...css];
}

export interface PrerenderedPage {
  path: string;
  file: string;
  lang: string;
  title: string;
}

/** Builds the server entry into node_modules/.cache (so bare imports resolve) and loads it. */
async function loadServerEntry(
  locale: Locale,
): Promise<{ entry: ServerEntry; cleanup: () => Promise<void> }> {
  const outDir = path.join(
    repoRoot,
    'node_modules',
    '.cache',
    `web-prerender-${randomBytes(4).toString('hex')}`,
  );
  await build({
    configFile: false,
    root: webRoot,
    envPrefix: ['VITE_', 'SITE_URL'],
    logLevel: 'warn',
    plugins: [localePlugin(locale, { germanMessages: germanLiterals }), react()],
    build: {
      ssr: 'src/entry-server.tsx',
      outDir,
      emptyOutDir: true,
      minify: false,
      copyPublicDir: false,
    },
  });
  const file = (await readdir(outDir)).find((name) => /^entry-server\.m?js$/.test(name));
  if (!file) throw new Error(`prerender: the server build wrote no entry-server.js to ${outDir}`);
  const entry = (await import(pathToFileURL(path.join(outDir, file)).href)) as ServerEntry;
  return { entry, cleanup: () => rm(outDir, { recursive: true, force: true }) };
}

const headTag = /^\s*(<title>[\s\S]*?<\/title>|<meta\b[^>]*>|<link\b[^>]*>)/;

/** React emits a page's hoisted <title>/<meta>/<link> ahead of the body when the root is not <html>. */
export function splitHead(rendered: string): { head: string[]; body: string } {
  const head: string[] = [];
  let rest = rendered;
  for (let match = headTag.exec(rest); match; match = headTag.exec(rest)) {
    head.push(match[1] ?? '');
    rest = rest.slice(match[0].length);
  }
  return { head, body: rest };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * `data-prerendered` of the not-found page (`404.html`): made for no one URL but for every path the
 * routes do not know, so the head script never marks it stale (its test is `if (p && ...)`), and
 * boot.tsx hydrates it wherever the client also renders the catch-all route.
 */
export const notFoundPrerendered = '';

/**
 * One page around the built template: lang, the page's head tags, the body, the entry at the end.
 * `path` is what `data-prerendered` records: the URL the page was made for, `notFoundPrerendered`,
 * or null for the app shell, which holds no page and is rendered afresh on the client.
 */
export function assemblePage(
  template: string,
  page: { path: string | null; head: string[]; body: string },
): string {
  const locale = page.head.join('').match(/<meta property="og:locale" content="([a-z]{2})_/)?.[1] ?? 'en';
  const madeFor = page.path === null ? '' : ` data-prerendered="${escapeAttribute(page.path)}"`;
  const scripts: string[] = [];
  let html = template
    .replace(/<html lang="[^"]*">/, `<html lang="${locale}"${madeFor}>`)
    .replace(/\s*<title>[\s\S]*?<\/title>/, '')
    // The entry loader (web/inline-scripts.ts) fetches nothing before `load`; at the end of <body> it
    // also runs after the content is parsed.
    .replace(/\s*<script data-entry="[^"]*">[\s\S]*?<\/script>/g, (tag) => {
      scripts.push(tag.trim());
      return '';
    });
  if (scripts.length !== 1) throw new Error('prerender: index.html has no entry loader script');
  if (!html.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty #root');
  html = html
    .replace('</head>', `    ${page.head.join('\n    ')}\n  </head>`)
    .replace(
      '<div id="root"></div>',
      () => `<div id="root">${page.body}</div>\n    ${scripts.join('\n    ')}`,
    );
  return html;
}

/** The page a redirect leaves behind for hosts that cannot answer 301 (CloudFront does, via its function). */
export function redirectPage(to: string, siteUrl: string): string {
  const target = escapeAttribute(to);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="refresh" content="0; url=${target}" />
    <meta name="robots" content="noindex" />
    <link rel="canonical" href="${escapeAttribute(siteUrl + to)}" />
    <title>Moved</title>
  </head>
  <body>
    <p>This page has moved to <a href="${target}">${target}</a>.</p>
  </body>
</html>
`;
}

/**
 * Every language's indexed pages, each with its alternates in every language (and x-default, the
 * English), as search engines read `hreflang` from a sitemap.
 */
export function sitemap(
  siteUrl: string,
  pages: readonly { path: string; basePath: string; locale: Locale }[],
): string {
  const url = (page: string) => `${siteUrl}${page}`;
  const urls = pages
    .map((page) => {
      const versions = pages.filter((other) => other.basePath === page.basePath);
      const english = versions.find((other) => other.locale === 'en');
      const alternates = [
        ...versions.map(
          (other) => `<xhtml:link rel="alternate" hreflang="${other.locale}" href="${url(other.path)}"/>`,
        ),
        ...(english
          ? [`<xhtml:link rel="alternate" hreflang="x-default" href="${url(english.path)}"/>`]
          : []),
      ];
      return `  <url><loc>${url(page.path)}</loc>${alternates.join('')}</url>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${urls}
</urlset>
`;
}

/**
 * Crawlers may fetch every prerendered page, the noindex ones included (/check-your-email, the
 * 404 page): a page blocked here could not show them its `noindex` and might still be listed from
 * links. App routes are disallowed: they hold nothing but the sign-in shell. A Disallow line is a
 * prefix, so none may cover a public page.
 */
export function robots(
  siteUrl: string,
  appPaths: readonly string[],
  publicPaths: readonly string[] = [],
): string {
  const disallowed = appPaths.map((app) => app.replace(/\/:.*$/, '/'));
  for (const page of publicPaths) {
    const blocking = disallowed.find((prefix) => page.startsWith(prefix));
    if (blocking) throw new Error(`prerender: robots.txt would disallow ${page} (Disallow: ${blocking})`);
  }
  return `User-agent: *
Allow: /
${disallowed.map((app) => `Disallow: ${app}`).join('\n')}

Sitemap: ${siteUrl}/sitemap.xml
`;
}

function pageResult(result: RenderResult, what: string, statuses: number[] = [200]) {
  if (result.kind !== 'page' || !statuses.includes(result.status)) {
    throw new Error(`prerender: ${what} did not render a page (${JSON.stringify(result).slice(0, 200)})`);
  }
  return splitHead(result.html);
}

function requireNoindex(html: string, page: string): void {
  if (!/<meta name="robots" content="noindex/.test(html))
    throw new Error(`prerender: ${page} is not noindex`);
  if (html.includes('rel="canonical"'))
    throw new Error(`prerender: ${page} is noindex but names a canonical URL`);
}

function requireOne(html: string, pattern: RegExp, what: string, page: string): string {
  const found = [...html.matchAll(pattern)];
  if (found.length !== 1)
    throw new Error(`prerender: ${page} has ${found.length} ${what} (needs exactly one)`);
  return found[0]?.[1] ?? '';
}

export async function prerenderSite(outDir: string, locale: Locale = 'en'): Promise<PrerenderedPage[]> {
  const { entry, cleanup } = await loadServerEntry(locale);
  try {
    // Both checks run before either refuses, so one failed build names everything to fix.
    const refusals: Error[] = [];
    const found = findPlaceholders(entry.company, 'company');
    if (found.length > 0) {
      const error = new PlaceholderContentError('web/src/content/company.ts', found);
      if (!placeholdersAllowed()) refusals.push(error);
      else console.warn(`prerender: placeholders allowed for this local/test build.\n${error.message}`);
    }
    const siteUrlProblem = checkSiteUrl(entry.siteUrl);
    if (siteUrlProblem) {
      const error = new SiteUrlError(siteUrlProblem);
      if (!siteUrlProblem.placeholder || !placeholdersAllowed()) refusals.push(error);
      else
        console.warn(`prerender: placeholder SITE_URL allowed for this local/test build.\n${error.message}`);
    }
    for (const error of refusals.slice(1)) console.error(`prerender: ${error.message}`);
    if (refusals[0]) throw refusals[0];
    const report: PlaceholderReport = {
      placeholders: [...found, ...(siteUrlProblem ? [`SITE_URL ${siteUrlProblem.problem}`] : [])],
    };
    await writeFile(path.join(outDir, placeholderReportFile), `${JSON.stringify(report, null, 2)}\n`);
    const built: SiteUrlRecord = { siteUrl: entry.siteUrl };
    await writeFile(path.join(outDir, siteUrlFile), `${JSON.stringify(built, null, 2)}\n`);

    const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const manifest = await readManifest(outDir);
    const linked = new Set(
      [...template.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
    );
    const linkStylesheets = (head: string[], page: string) => {
      const module = `src/pages/${page}.tsx`;
      if (!manifest[module]) throw new Error(`prerender: the build manifest has no ${module}`);
      for (const href of pageStylesheets(manifest, module)) {
        if (!linked.has(href)) head.push(`<link rel="stylesheet" crossorigin href="${href}">`);
      }
    };
    const pages: PrerenderedPage[] = [];
    for (const { path: pagePath, page } of entry.publicPaths) {
      const { head, body } = pageResult(await entry.renderRoute(pagePath), pagePath);
      linkStylesheets(head, page);
      const html = assemblePage(template, { path: pagePath, head, body });
      const title = requireOne(html, /<title>([\s\S]*?)<\/title>/g, '<title>', pagePath);
      requireOne(html, /<meta name="description" content="([^"]*)"/g, 'meta descriptions', pagePath);
      // A page kept out of search engines (noindex) names no canonical URL.
      if (!/<meta name="robots" content="noindex/.test(html)) {
        requireOne(html, /<link rel="canonical" href="([^"]*)"/g, 'canonical links', pagePath);
      }
      const file = pagePath === '/' ? 'index.html' : `${pagePath.slice(1)}/index.html`;
      await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
      await writeFile(path.join(outDir, file), html);
      pages.push({ path: pagePath, file, lang: html.match(/<html lang="([^"]+)"/)?.[1] ?? 'en', title });
    }

    // The not-found page, rendered by the catch-all route at a path the registry does not know; the
    // edge (CloudFront's functions, local/web) serves it with status 404 for every such path.
    const unknownPath = '/404';
    if (entry.isKnownPath(unknownPath))
      throw new Error(`prerender: ${unknownPath} is a route of the registry`);
    {
      const { head, body } = pageResult(await entry.renderRoute(unknownPath), '404.html', [200, 404]);
      linkStylesheets(head, 'not-found');
      const html = assemblePage(template, { path: notFoundPrerendered, head, body });
      requireOne(html, /<title>([\s\S]*?)<\/title>/g, '<title>', '404.html');
      requireNoindex(html, '404.html');
      await writeFile(path.join(outDir, '404.html'), html);
    }
    // The app shell: the layout with a pending main, which app routes start from instead of a page
    // they would briefly show (the home page, before).
    {
      const { head, body } = pageResult(await entry.renderAppShell(), 'app.html');
      const html = assemblePage(template, { path: null, head, body });
      requireOne(html, /<title>([\s\S]*?)<\/title>/g, '<title>', 'app.html');
      requireNoindex(html, 'app.html');
      await writeFile(path.join(outDir, 'app.html'), html);
    }

    // The rest is the site's, written once, by the English build (the German build is merged into
    // it: web/scripts/locale.ts).
    if (entry.buildLocale !== 'en') {
      await writeFile(path.join(outDir, 'prerendered.json'), `${JSON.stringify(pages, null, 2)}\n`);
      return pages;
    }
    for (const [from, to] of Object.entries(entry.redirects)) {
      await mkdir(path.join(outDir, from.slice(1)), { recursive: true });
      await writeFile(path.join(outDir, from.slice(1), 'index.html'), redirectPage(to, entry.siteUrl));
    }
    await writeFile(
      path.join(outDir, 'sitemap.xml'),
      sitemap(
        entry.siteUrl,
        entry.localizedPublicPaths.filter((page) => page.indexed),
      ),
    );
    await writeFile(
      path.join(outDir, 'robots.txt'),
      robots(
        entry.siteUrl,
        entry.appPaths,
        entry.localizedPublicPaths.map((page) => page.path),
      ),
    );
    await writeFile(path.join(outDir, 'prerendered.json'), `${JSON.stringify(pages, null, 2)}\n`);
    return pages;
  } finally {
    await cleanup();
  }
}

/** The last step of the client build: prerender into its outDir. */
export function prerenderPlugin(locale: Locale = 'en'): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      const pages = await prerenderSite(path.resolve(config.root, config.build.outDir), locale);
      config.logger.info(`prerendered ${pages.length} pages`);
    },
  };
}
