// Build step (DESIGN section 10): renders every public route to `<route>/index.html` with React
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
import {
  checkSiteUrl,
  findPlaceholders,
  PlaceholderContentError,
  placeholdersAllowed,
  SiteUrlError,
} from './placeholders.ts';

const webRoot = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = path.resolve(webRoot, '..');

/** What the SSR bundle (web/src/entry-server.tsx) exports. */
interface ServerEntry {
  renderRoute(
    path: string,
  ): Promise<{ kind: 'page'; status: number; html: string } | { kind: 'redirect'; location: string }>;
  publicPaths: readonly { path: string; page: string; indexed: boolean }[];
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
async function loadServerEntry(): Promise<{ entry: ServerEntry; cleanup: () => Promise<void> }> {
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
    plugins: [react()],
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

/** One page around the built template: lang, the page's head tags, the body, the entry at the end. */
export function assemblePage(template: string, page: { path: string; head: string[]; body: string }): string {
  const locale = page.head.join('').match(/<meta property="og:locale" content="([a-z]{2})_/)?.[1] ?? 'en';
  const scripts: string[] = [];
  let html = template
    .replace(
      /<html lang="[^"]*">/,
      `<html lang="${locale}" data-prerendered="${escapeAttribute(page.path)}">`,
    )
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

export function sitemap(siteUrl: string, pagePaths: readonly string[]): string {
  const urls = pagePaths
    .map((page) => `  <url><loc>${siteUrl}${page === '/' ? '/' : page}</loc></url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls}
</urlset>
`;
}

export function robots(siteUrl: string, appPaths: readonly string[]): string {
  return `User-agent: *
Allow: /
${appPaths.map((app) => `Disallow: ${app}`).join('\n')}

Sitemap: ${siteUrl}/sitemap.xml
`;
}

function requireOne(html: string, pattern: RegExp, what: string, page: string): string {
  const found = [...html.matchAll(pattern)];
  if (found.length !== 1)
    throw new Error(`prerender: ${page} has ${found.length} ${what} (needs exactly one)`);
  return found[0]?.[1] ?? '';
}

export async function prerenderSite(outDir: string): Promise<PrerenderedPage[]> {
  const { entry, cleanup } = await loadServerEntry();
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

    const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const manifest = await readManifest(outDir);
    const linked = new Set(
      [...template.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
    );
    const pages: PrerenderedPage[] = [];
    for (const { path: pagePath, page } of entry.publicPaths) {
      const result = await entry.renderRoute(pagePath);
      if (result.kind !== 'page' || result.status !== 200) {
        throw new Error(
          `prerender: ${pagePath} did not render a page (${JSON.stringify(result).slice(0, 200)})`,
        );
      }
      const { head, body } = splitHead(result.html);
      const module = `src/pages/${page}.tsx`;
      if (!manifest[module]) throw new Error(`prerender: the build manifest has no ${module}`);
      for (const href of pageStylesheets(manifest, module)) {
        if (!linked.has(href)) head.push(`<link rel="stylesheet" crossorigin href="${href}">`);
      }
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

    for (const [from, to] of Object.entries(entry.redirects)) {
      await mkdir(path.join(outDir, from.slice(1)), { recursive: true });
      await writeFile(path.join(outDir, from.slice(1), 'index.html'), redirectPage(to, entry.siteUrl));
    }
    await writeFile(
      path.join(outDir, 'sitemap.xml'),
      sitemap(
        entry.siteUrl,
        entry.publicPaths.filter((page) => page.indexed).map((page) => page.path),
      ),
    );
    await writeFile(path.join(outDir, 'robots.txt'), robots(entry.siteUrl, entry.appPaths));
    await writeFile(path.join(outDir, 'prerendered.json'), `${JSON.stringify(pages, null, 2)}\n`);
    return pages;
  } finally {
    await cleanup();
  }
}

/** The last step of the client build: prerender into its outDir. */
export function prerenderPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      const pages = await prerenderSite(path.resolve(config.root, config.build.outDir));
      config.logger.info(`prerendered ${pages.length} pages`);
    },
  };
}
