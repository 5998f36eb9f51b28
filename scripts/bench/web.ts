// The website's budgets (issues 5, 9 and 13), measured on the production build by `npm run bench
// -- --only web` (the build comes first):
//   - initial JS of `/` (gzip, the entry plus what it imports right after `load`) <= 110 KiB, of
//     `/register` <= 125 KiB; no @auth0/* or persona module on any public route;
//   - signed-in routes: exactly one copy of the Auth0 SDK in the whole build, the persona SDK only
//     in what `/kyc/persona` loads, and everything `/kyc/persona` loads <= 200 KiB gzip;
//   - Lighthouse 13 mobile (Debian Chromium, simulated throttling), median of N runs, per public
//     route: LCP <= 1.10x the same page as static HTML (scripts stripped), TBT <= 1.5x the TBT of a
//     page that loads only react-dom and hydrates an empty root, both measured in the same run and
//     interleaved with the route's own runs; CLS <= 0.01 (the cookie banner shows: Lighthouse
//     resets storage before every run); accessibility, best practices and SEO 100.
// The deterministic part (sizes, forbidden modules, Auth0 copies) is also a test:
// tests/performance/web-bundles.stack.test.ts.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import { build } from 'esbuild';
import lighthouse from 'lighthouse';
import { startWeb } from '#local/web/index.ts';
import { chromiumArgs } from '#scripts/lib/chromium.ts';
import { freePort } from '#scripts/lib/free-port.ts';
import { type Locale, locales, splitLocalizedPath } from '#web/config/locale.ts';
import { type LocalizedPublicPath, localizedPublicPaths } from '#web/config/site-paths.ts';
import { localeChunkModulesFile, localeManifestFile } from '../../web/scripts/locale.ts';
import { manifestFile, type ViteManifest } from '../../web/scripts/prerender.ts';
import { chunkModulesFile } from '../../web/vite.config.ts';
import type { Row } from './report.ts';
import { median } from './stats.ts';

export const webBudgets = {
  /** 110 KB in the unit docs/design.md section 10 measured in (KiB). */
  initialJsGzipBytes: 110 * 1024,
  /** Per route where it differs from the default above. */
  initialJsGzipBytesByRoute: { '/register': 125 * 1024 } as Record<string, number>,
  /** Everything `/kyc/persona` loads: entry, boot, app shell, Auth0, the screen and the persona SDK. */
  kycPersonaJsGzipBytes: 200 * 1024,
  lcpRatio: 1.1,
  tbtRatio: 1.5,
  cls: 0.01,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
};

/**
 * The initial-JS budget of a public route (only `/` and `/register` have one), in every language:
 * `/de` and `/de/register` have the English pages' budgets (ADR 0089).
 */
export const initialJsBudget = (localizedRoute: string): number => {
  const route = splitLocalizedPath(localizedRoute).path;
  return (
    webBudgets.initialJsGzipBytesByRoute[route] ??
    (route === '/' ? webBudgets.initialJsGzipBytes : Number.POSITIVE_INFINITY)
  );
};

/** A language's build manifest and chunk list (the English at Vite's names, the others beside them). */
async function readLocaleBuild(distDir: string, locale: Locale) {
  const manifestName = locale === 'en' ? manifestFile : localeManifestFile(locale);
  const modulesName = locale === 'en' ? chunkModulesFile : localeChunkModulesFile(locale);
  const manifest = JSON.parse(await readFile(path.join(distDir, manifestName), 'utf8')) as ViteManifest;
  const modules = JSON.parse(await readFile(path.join(distDir, modulesName), 'utf8')) as Record<
    string,
    string[]
  >;
  return { manifest, modules };
}

export const forbiddenModule = /node_modules\/(@auth0\/|persona\/)/;
const schemaModule = /node_modules\/zod\//;

const defaultDist = fileURLToPath(new URL('../../web/dist/', import.meta.url));

function htmlFile(distDir: string, urlPath: string): string {
  return path.join(distDir, urlPath === '/' ? 'index.html' : `${urlPath.slice(1)}/index.html`);
}
/** The chunks a page runs right after `load`: the entry (named by the entry loader) -> boot -> the route's page module. */
export function initialChunks(manifest: ViteManifest, entryFiles: string[], page: string): string[] {
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const file of entryFiles) {
    const key = byFile.get(file);
    if (!key) throw new Error(`${file} is not in the build manifest`);
    visit(key);
    // main.tsx imports boot.tsx once `load` fired; boot resolves the route's module before hydrating.
    for (const dynamic of manifest[key]?.dynamicImports ?? []) visit(dynamic);
  }
  visit(`src/pages/${page}.tsx`);
  return [...files];
}

/** Every public page in every language, each measured against its own language's build. */
export async function measureJs(
  distDir = defaultDist,
  routes: readonly LocalizedPublicPath[] = localizedPublicPaths,
) {
  const builds = new Map<Locale, Awaited<ReturnType<typeof readLocaleBuild>>>();
  const results = [];
  for (const route of routes) {
    let build = builds.get(route.locale);
    if (!build) {
      build = await readLocaleBuild(distDir, route.locale);
      builds.set(route.locale, build);
    }
    const { manifest, modules } = build;
    const html = await readFile(htmlFile(distDir, route.path), 'utf8');
    const entries = [...html.matchAll(/<script data-entry="\/([^"]+)"/g)].map((m) => m[1] ?? '');
    const chunks = initialChunks(manifest, entries, route.page);
    let gzip = 0;
    for (const file of chunks)
      gzip += gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length;
    const forbidden = chunks.flatMap((file) =>
      (modules[file] ?? []).filter((id) => forbiddenModule.test(id)),
    );
    // The schema library: a page without a form has no reason to evaluate it (ADR 0044).
    const schemas = chunks.some((file) => (modules[file] ?? []).some((id) => schemaModule.test(id)));
    results.push({ path: route.path, locale: route.locale, chunks: chunks.length, gzip, forbidden, schemas });
  }
  return results;
}

/** The signed-in screens' lazy modules (web/src/app/routes.tsx `appScreens`). */
const appScreenModules: Record<string, string> = {
  '/auth/callback': 'src/features/auth/screens/auth-callback.tsx',
  '/verification-required': 'src/features/auth/screens/verification-required.tsx',
  '/kyc/start': 'src/features/kyc/screens/kyc-start.tsx',
  '/kyc/persona': 'src/features/kyc/screens/kyc-persona.tsx',
  '/auth/kyc-complete': 'src/features/kyc/screens/kyc-status.tsx',
  '/dashboard': 'src/features/dashboards/screens/setup-dashboard.tsx',
  '/defense-dashboard': 'src/features/dashboards/screens/defense-dashboard.tsx',
  '/user-account': 'src/features/account/screens/user-account.tsx',
  '/admin/verification': 'src/features/admin/screens/verification-review.tsx',
  '/organization': 'src/features/organization/screens/organization-team.tsx',
};

/**
 * What a signed-in route loads: the app page's entry and boot, the app shell and the screen with
 * their static imports, and what the screen imports dynamically (the persona SDK on /kyc/persona).
 */
export async function measureSignedIn(distDir = defaultDist, locale: Locale = 'en') {
  const { manifest, modules } = await readLocaleBuild(distDir, locale);
  const html = await readFile(path.join(distDir, 'app.html'), 'utf8').catch(() =>
    readFile(path.join(distDir, 'index.html'), 'utf8'),
  );
  // The app shell names each language's entry (`data-entry`, `data-entry-de`).
  const attribute = locale === 'en' ? 'data-entry' : `data-entry-${locale}`;
  const entries = [...html.matchAll(new RegExp(`<script[^>]* ${attribute}="/([^"]+)"`, 'g'))].map(
    (m) => m[1] ?? '',
  );
  if (entries.length === 0) throw new Error(`app.html names no ${attribute}`);
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const routes = [];
  for (const [route, screen] of Object.entries(appScreenModules)) {
    const files = new Set<string>();
    const visit = (key: string, followDynamic: boolean) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported, false);
      if (followDynamic) for (const dynamic of chunk.dynamicImports ?? []) visit(dynamic, false);
    };
    for (const file of entries) {
      const key = byFile.get(file);
      if (!key) throw new Error(`${file} is not in the build manifest`);
      // main.tsx imports boot.tsx; boot's own lazy routes load only when matched.
      visit(key, true);
    }
    visit('src/app/app-layout.tsx', false);
    if (!manifest[screen]) throw new Error(`the build manifest has no ${screen}`);
    visit(screen, true);
    let gzip = 0;
    for (const file of files) gzip += gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length;
    const persona = [...files].some((file) =>
      (modules[file] ?? []).some((id) => /node_modules\/persona\//.test(id)),
    );
    routes.push({ path: route, chunks: files.size, gzip, persona });
  }
  // @auth0/auth0-react's bundle carries its own build of auth0-spa-js: one copy is the chunks
  // holding auth0-react; any chunk with an auth0-spa-js module of its own is a second copy.
  const holding = (pattern: RegExp) =>
    Object.entries(modules)
      .filter(([, ids]) => ids.some((id) => pattern.test(id)))
      .map(([file]) => file);
  const reactSdkChunks = holding(/node_modules\/@auth0\/auth0-react\//);
  const spaSdkChunks = holding(/node_modules\/@auth0\/auth0-spa-js\//);
  const auth0Chunks = [...reactSdkChunks, ...spaSdkChunks];
  const auth0Copies = (reactSdkChunks.length > 0 ? 1 : 0) + spaSdkChunks.length;
  return { routes, auth0Copies, auth0Chunks };
}

/** Answers every API call with 201 {success:true}: the pages' JS must not fail on the bench. */
async function startStubApi(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(req.method === 'GET' ? 200 : 201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ success: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('stub API has no port');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

interface LighthouseFigures {
  lcp: number;
  tbt: number;
  cls: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  failedAudits: string[];
  seoAuditIds: string[];
  /** Lighthouse's own error code when the run itself failed. */
  runtimeError?: string;
}

const quickCapture = {
  pauseAfterFcpMs: 250,
  pauseAfterLoadMs: 250,
  networkQuietThresholdMs: 250,
  cpuQuietThresholdMs: 250,
};

type Chrome = Awaited<ReturnType<typeof chromeLauncher.launch>>;

/**
 * One Lighthouse run in `chrome` (Lighthouse clears the origin's storage and cache before each
 * run, so every run is a first visit and the cookie banner shows). A run Lighthouse itself reports
 * as broken (NO_NAVSTART, NO_FCP, ...) is repeated, up to twice, and said so.
 */
async function runLighthouse(
  chrome: Chrome,
  url: string,
  categories: string[],
  log: (line: string) => void,
  attemptsLeft = 3,
): Promise<LighthouseFigures> {
  const figures = await runLighthouseOnce(chrome, url, categories);
  if (!Number.isNaN(figures.lcp) || attemptsLeft <= 1) return figures;
  log(`  (${url}: ${figures.runtimeError ?? 'no LCP'}; running it again)`);
  return runLighthouse(chrome, url, categories, log, attemptsLeft - 1);
}

async function runLighthouseOnce(
  chrome: Chrome,
  url: string,
  categories: string[],
): Promise<LighthouseFigures> {
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: categories,
    // A page without scripts has nothing to wait for after `load`: its floor run waits a quarter
    // of Lighthouse's default quiet windows (LCP is the same paint; a run is ~2 s shorter).
    ...(url.includes('/__static/') ? quickCapture : {}),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { audits, categories: scored } = result.lhr;
  const graded = ['accessibility', 'best-practices', 'seo'].flatMap((id) => scored[id]?.auditRefs ?? []);
  const failedAudits = graded
    .map((ref) => audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1)
    .map((audit) => audit?.id ?? '');
  const score = (id: string) => (scored[id] ? Math.round((scored[id]?.score ?? 0) * 100) : Number.NaN);
  return {
    lcp: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbt: audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    failedAudits,
    seoAuditIds: (scored.seo?.auditRefs ?? []).map((ref) => ref.id),
    ...(result.lhr.runtimeError ? { runtimeError: result.lhr.runtimeError.code } : {}),
  };
}

/**
 * The TBT reference: a page that loads only react-dom and hydrates an empty root (React's own
 * cost, the floor any hydrated page pays), bundled for production like the site and loaded the
 * way the site loads its entry.
 */
async function writeReferencePage(root: string): Promise<string> {
  const dir = path.join(root, '__reference');
  await mkdir(dir, { recursive: true });
  const entry = path.join(dir, 'entry.js');
  await writeFile(
    entry,
    "import { hydrateRoot } from 'react-dom/client';\nhydrateRoot(document.getElementById('root'), null);\n",
  );
  await build({
    entryPoints: [entry],
    outfile: path.join(dir, 'reference.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"' },
    nodePaths: [fileURLToPath(new URL('../../node_modules/', import.meta.url))],
    logLevel: 'error',
  });
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Reference</title><script type="module" src="/__reference/loader.js"></script></head><body><p>React hydrates an empty root.</p><div id="root"></div></body></html>',
  );
  // Loaded as the site loads its entry (ADR 0009): imported once `load` fired.
  await writeFile(
    path.join(dir, 'loader.js'),
    "addEventListener('load', () => import('/__reference/reference.js'), { once: true });\n",
  );
  return '/__reference/index.html';
}

/** A route's medians over the rounds, beside its floor's LCP. */
type PageSummary = Omit<LighthouseFigures, 'runtimeError'> & { path: string; staticLcp: number };

/**
 * How people arrive on a route when it is not bare: the data-deletion confirmation is only ever
 * opened from its email, with the token in the fragment (without one it shows a "link is
 * incomplete" alert once hydrated, which moves the button: a layout shift no real visit has).
 */
const visitFragment: Record<string, string> = { '/data-deletion/confirm': '#token=bench-token' };

export async function measurePages(options: {
  distDir?: string;
  routes?: readonly LocalizedPublicPath[];
  runs: number;
  log: (line: string) => void;
}) {
  const distDir = options.distDir ?? defaultDist;
  const routes = options.routes ?? localizedPublicPaths;
  const { runs, log } = options;
  // A copy of the build plus, per route, the same page as static HTML (no scripts at all): the floor.
  const root = await mkdtemp(path.join(tmpdir(), 'bench-web-'));
  await cp(distDir, root, { recursive: true });
  const staticPath = (route: string) => `/__static/${route === '/' ? 'home' : route.slice(1)}/index.html`;
  for (const route of routes) {
    const html = await readFile(htmlFile(distDir, route.path), 'utf8');
    const stripped = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
    const file = path.join(root, staticPath(route.path));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, stripped);
  }
  const referencePath = await writeReferencePage(root);
  const api = await startStubApi();
  const port = await freePort();
  const web = await startWeb({
    port,
    mode: 'dist',
    apiUrl: api.url,
    // The stub API checks nothing; a fixed value stands in for the origin secret.
    originSecret: 'bench-origin-secret',
    distDir: root,
    config: {
      stage: 'bench',
      auth0: {
        domain: 'http://127.0.0.1:9',
        clientId: 'bench',
        audience: 'https://api.bench',
        claimsNamespace: 'https://platform.example/claims',
      },
      persona: { environmentId: 'env_bench' },
    },
  });
  // One Lighthouse run at a time, each in a fresh browser and profile: on 2 shared cores a second
  // concurrent run would distort every timing (the simulation scales what it observed), and runs
  // sharing one browser came back NO_NAVSTART far more often (about one in four here).
  const lighthouseRun = async (url: string, categories: string[]) => {
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      chromeFlags: chromiumArgs,
    });
    try {
      return await runLighthouse(chrome, url, categories, log);
    } finally {
      chrome.kill();
    }
  };
  try {
    const page = new Map<string, LighthouseFigures[]>(routes.map((route) => [route.path, []]));
    const floor = new Map<string, number[]>(routes.map((route) => [route.path, []]));
    const reference: number[] = [];
    // Round-robin: each round measures the reference and every route with its floor, so a slow
    // moment of the machine hits a page, its floor and the reference alike.
    for (let run = 0; run < runs; run++) {
      log(`web: Lighthouse round ${run + 1} of ${runs}`);
      reference.push((await lighthouseRun(`${web.url}${referencePath}`, ['performance'])).tbt);
      for (const route of routes) {
        floor
          .get(route.path)
          ?.push((await lighthouseRun(`${web.url}${staticPath(route.path)}`, ['performance'])).lcp);
        page
          .get(route.path)
          ?.push(
            await lighthouseRun(`${web.url}${route.path}${visitFragment[route.path] ?? ''}`, [
              'performance',
              'accessibility',
              'best-practices',
              'seo',
            ]),
          );
      }
    }
    const pages: PageSummary[] = routes.map((route) => {
      const figures = page.get(route.path) ?? [];
      return {
        path: route.path,
        lcp: median(figures.map((p) => p.lcp)),
        staticLcp: median(floor.get(route.path) ?? []),
        tbt: median(figures.map((p) => p.tbt)),
        cls: median(figures.map((p) => p.cls)),
        accessibility: median(figures.map((p) => p.accessibility)),
        bestPractices: median(figures.map((p) => p.bestPractices)),
        seo: median(figures.map((p) => p.seo)),
        failedAudits: [...new Set(figures.flatMap((p) => p.failedAudits))],
        seoAuditIds: [...new Set(figures.flatMap((p) => p.seoAuditIds))],
      };
    });
    return { pages, referenceTbt: median(reference), referenceTbts: reference };
  } finally {
    await web.close();
    api.server.close();
    await rm(root, { recursive: true, force: true });
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Every web budget as rows of the bench's table. */
export async function measureWeb(options: {
  runs: number;
  lighthouse?: boolean;
  routes?: string[];
  log: (line: string) => void;
}): Promise<Row[]> {
  const rows: Row[] = [];
  const routes = localizedPublicPaths.filter(
    (entry) => !options.routes || options.routes.includes(entry.path),
  );
  for (const row of await measureJs(defaultDist, routes)) {
    const budget = initialJsBudget(row.path);
    if (Number.isFinite(budget))
      rows.push({
        area: 'web',
        metric: `initial JS of ${row.path} (gzip, ${row.chunks} files)`,
        measured: kib(row.gzip),
        budget: `<= ${kib(budget)}`,
        pass: row.gzip <= budget,
      });
    if (row.forbidden.length > 0 || Number.isFinite(budget))
      rows.push({
        area: 'web',
        metric: `SDK bytes on ${row.path} (@auth0/*, persona)`,
        measured: row.forbidden.length ? row.forbidden.join(', ') : 'none',
        budget: 'none',
        pass: row.forbidden.length === 0,
      });
  }
  const clean = (await measureJs(defaultDist, routes)).filter((row) => row.forbidden.length === 0).length;
  rows.push({
    area: 'web',
    metric: 'public routes without SDK bytes (@auth0/*, persona)',
    measured: `${clean} of ${routes.length}`,
    budget: 'all',
    pass: clean === routes.length,
  });
  for (const locale of locales) {
    const signedIn = await measureSignedIn(defaultDist, locale);
    const kyc = signedIn.routes.find((route) => route.path === '/kyc/persona');
    rows.push({
      area: 'web',
      metric: `signed-in /kyc/persona (${locale}): everything it fetches (gzip, ${kyc?.chunks ?? 0} files)`,
      measured: kyc ? kib(kyc.gzip) : 'n/a',
      budget: `<= ${kib(webBudgets.kycPersonaJsGzipBytes)}`,
      pass: kyc !== undefined && kyc.gzip <= webBudgets.kycPersonaJsGzipBytes,
    });
    rows.push({
      area: 'web',
      metric: `Auth0 SDK copies in the ${locale} build`,
      measured: `${signedIn.auth0Copies} (${signedIn.auth0Chunks.join(', ')})`,
      budget: 'exactly 1',
      pass: signedIn.auth0Copies === 1,
    });
  }
  if (options.lighthouse === false) return rows;

  const { pages, referenceTbt, referenceTbts } = await measurePages({
    routes,
    runs: options.runs,
    log: options.log,
  });
  rows.push({
    area: 'web',
    metric: `TBT reference: react-dom hydrating an empty root (median of ${options.runs})`,
    measured: `${referenceTbt.toFixed(0)} ms (${referenceTbts.map((value) => value.toFixed(0)).join(', ')})`,
    budget: '-',
    pass: null,
  });
  for (const page of pages) {
    // A journey page kept out of search engines on purpose (`indexed: false`: /check-your-email,
    // /data-deletion/confirm) fails exactly one SEO audit, `is-crawlable`, by design; any other
    // failing SEO audit still counts.
    const unindexed = routes.find((route) => route.path === page.path)?.indexed === false;
    const seoFailures = page.failedAudits.filter((audit) => !(unindexed && audit === 'is-crawlable'));
    const seoAudits = new Set(page.seoAuditIds);
    const seoMet =
      page.seo >= webBudgets.seo || (unindexed && !seoFailures.some((audit) => seoAudits.has(audit)));
    const lcpRatio = page.lcp / page.staticLcp;
    const tbtRatio = page.tbt / referenceTbt;
    rows.push({
      area: 'web',
      metric: `${page.path}: LCP vs static, TBT vs reference, CLS`,
      measured: `${lcpRatio.toFixed(2)}x (${page.lcp.toFixed(0)} / ${page.staticLcp.toFixed(0)} ms), ${tbtRatio.toFixed(2)}x (${page.tbt.toFixed(0)} ms), ${page.cls.toFixed(3)}`,
      budget: `<= ${webBudgets.lcpRatio}x, <= ${webBudgets.tbtRatio}x, <= ${webBudgets.cls}`,
      pass: lcpRatio <= webBudgets.lcpRatio && tbtRatio <= webBudgets.tbtRatio && page.cls <= webBudgets.cls,
    });
    rows.push({
      area: 'web',
      metric: `${page.path}: accessibility / best practices / SEO`,
      measured: `${page.accessibility} / ${page.bestPractices} / ${page.seo}${page.failedAudits.length ? ` (failing: ${page.failedAudits.join(', ')})` : ''}`,
      budget: unindexed ? '100 / 100 / 100 but is-crawlable (noindex by design)' : '100 / 100 / 100',
      pass:
        page.accessibility >= webBudgets.accessibility &&
        page.bestPractices >= webBudgets.bestPractices &&
        seoMet,
    });
  }
  return rows;
}
