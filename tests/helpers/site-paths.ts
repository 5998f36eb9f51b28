import { appShellPage, notFoundPage, pageFile, type SiteRoutes } from '#infra/site/path-mapping.ts';
import { paths } from '#web/config/paths.ts';

// One table of what the site answers for a path, run against the CloudFront Functions executed in
// Node (tests/infra/site/path-mapping.test.ts) and against the local dist server over HTTP
// (tests/local/web/dist.test.ts), so the two cannot answer differently.

export interface SitePathCase {
  /** What the viewer asks for (path and query). */
  path: string;
  status: 200 | 301 | 404;
  /** The bucket key whose body is sent; null for S3's own 404 (no such object: never HTML). */
  file?: string | null;
  /** Where a 301 points. */
  location?: string;
}

/** The files a built site holds, besides its pages: what the table's file cases ask for. */
export const otherFiles = ['/assets/app-x.js', '/sitemap.xml', '/robots.txt'] as const;

/** Every object of a build for these routes (pages, the 404 page, the app shell, assets). */
export function bucketKeys(routes: SiteRoutes): string[] {
  const localeNotFound = (routes.localePrefixes ?? []).map((prefix) => `${prefix}${notFoundPage}`);
  return [...routes.pages.map(pageFile), notFoundPage, ...localeNotFound, appShellPage, ...otherFiles];
}

const sample = (route: string) => route.replace(/:[^/]+/g, 'x1');

export function sitePathCases(routes: SiteRoutes): SitePathCase[] {
  const cases: SitePathCase[] = [];
  for (const page of routes.pages) {
    cases.push({ path: page, status: 200, file: pageFile(page) });
    if (page !== '/') cases.push({ path: `${page}/`, status: 200, file: pageFile(page) });
    cases.push({ path: `${page}${page === '/' ? '' : '/'}?utm_source=x`, status: 200, file: pageFile(page) });
  }
  for (const route of routes.app) {
    cases.push({ path: sample(route), status: 200, file: appShellPage });
    cases.push({ path: `${sample(route)}/`, status: 200, file: appShellPage });
  }
  if (routes.app.includes(paths.adminVerification.path)) {
    cases.push({ path: paths.adminVerification.getHref('pending'), status: 200, file: appShellPage });
  }
  for (const [from, to] of Object.entries(routes.redirects)) {
    cases.push({ path: from, status: 301, location: to });
    cases.push({ path: `${from}/`, status: 301, location: to });
  }
  const unknown = [
    '/no/such/page',
    '/no/such/page/',
    '/pricing/extra',
    `${paths.dashboard.path}/extra`,
    '/Pricing',
    '/404',
    '/app',
    '/index',
    '/constructor',
    '/__proto__',
    '/.well-known',
    '/nope?status=pending',
  ];
  for (const path of unknown) cases.push({ path, status: 404, file: notFoundPage });
  // Under a language's prefix, that language's not-found page (ADR 0089).
  for (const prefix of routes.localePrefixes ?? []) {
    for (const path of [`${prefix}/no/such/page`, `${prefix}/pricing/extra`, `${prefix}/dashboard`]) {
      cases.push({ path, status: 404, file: `${prefix}${notFoundPage}` });
    }
  }
  cases.push(
    // Files stay as they are: present ones are served, missing ones are S3's 404, never HTML.
    { path: '/assets/app-x.js', status: 200, file: '/assets/app-x.js' },
    { path: '/assets/missing-chunk.js', status: 404, file: null },
    { path: '/favicon.ico', status: 404, file: null },
    { path: '/sitemap.xml', status: 200, file: '/sitemap.xml' },
    { path: '/robots.txt', status: 200, file: '/robots.txt' },
    { path: '/pricing/index.html', status: 200, file: '/pricing/index.html' },
    { path: '/index.html', status: 200, file: '/index.html' },
    { path: appShellPage, status: 200, file: appShellPage },
    // The not-found page is a 404 wherever it is asked for.
    { path: notFoundPage, status: 404, file: notFoundPage },
  );
  return cases;
}
