// How the site answers a path, as two CloudFront Functions on the default (S3) behaviour, generated
// from the route registry (web/src/config/paths.ts). The local dist server runs this same code
// (local/web/edge.ts), so both answer every path alike:
// - a prerendered page, `/x` or `/x/` -> `/x/index.html` (200);
//   (every language's: `/de/pricing` -> `/de/pricing/index.html`, ADR 0089);
// - an app route (client-rendered) -> the app shell page `/app.html` (200), which starts the
//   reader's language;
// - an old short URL -> 301 to the full page;
// - any other path without a file extension -> the prerendered not-found page `/404.html` (under
//   `/de/`, the German one, `/de/404.html`), and the viewer-response function turns its 200 into a 404;
// - a path with an extension stays as it is, so a missing chunk is S3's 404, never HTML.
// `/api/*` has its own behaviour and never reaches these functions, so API errors stay problem+json.
// No custom error responses: they would rewrite the API's own 403/404 bodies as well.
import { localePrefixes, locales } from '#web/config/locale.ts';
import { appPaths, redirects } from '#web/config/paths.ts';
import { localizedPublicPaths } from '#web/config/site-paths.ts';

/** The prerendered not-found page (web/scripts/prerender.ts writes it). */
export const notFoundPage = '/404.html';
/** The layout with an empty main, which client-rendered routes start from. */
export const appShellPage = '/app.html';

/** A CloudFront Function's code may be at most 10 KB. */
export const functionCodeLimitBytes = 10_240;

export interface SiteRoutes {
  /** Prerendered pages (`/`, `/pricing`), each served from its own `index.html`. */
  pages: readonly string[];
  /** Client-rendered routes, served from the app shell page; a `:name` segment matches any one segment. */
  app: readonly string[];
  /** Old short URLs and where they moved. */
  redirects: Readonly<Record<string, string>>;
  /** Each language's path prefix (`/de`): an unknown path under it gets that language's not-found page. */
  localePrefixes?: readonly string[];
}

/** The routes of the registry. */
export const siteRoutes: SiteRoutes = {
  pages: localizedPublicPaths.map((entry) => entry.path),
  app: appPaths,
  redirects,
  localePrefixes: locales.map((locale) => localePrefixes[locale]).filter((prefix) => prefix !== ''),
};

/** The file a prerendered page is written to. */
export function pageFile(route: string): string {
  return route === '/' ? '/index.html' : `${route}/index.html`;
}

function patternSource(route: string): string {
  if (/[?*]/.test(route)) {
    throw new Error(`path mapping: ${route}: optional and splat segments are not supported`);
  }
  return `^${route
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.+^${}()|[\]\\]/g, (char) => `\\${char}`),
    )
    .join('/')}$`;
}

/** The mapping both functions share: route tables and `fileFor(uri)`. */
function sharedCode(routes: SiteRoutes): string {
  const exact: Record<string, string> = {};
  const patterns: string[] = [];
  for (const page of routes.pages) exact[page] = pageFile(page);
  for (const route of routes.app) {
    const source = patternSource(route);
    if (route.includes(':')) patterns.push(source);
    else exact[route] = appShellPage;
  }
  const files = Object.fromEntries(Object.entries(exact).sort(([a], [b]) => a.localeCompare(b)));
  return `var files = ${JSON.stringify(files)};
var appRoutes = [${patterns.map((source) => `new RegExp(${JSON.stringify(source)})`).join(', ')}];
var redirects = ${JSON.stringify(routes.redirects)};
var localePrefixes = ${JSON.stringify(routes.localePrefixes ?? [])};
function fileFor(uri) {
  var last = uri.slice(uri.lastIndexOf('/') + 1);
  // Same test as path.extname: a leading dot ('.well-known') is not an extension.
  if (last.lastIndexOf('.') > 0) return uri;
  var route = uri.replace(/\\/+$/, '') || '/';
  if (typeof files[route] === 'string') return files[route];
  for (var i = 0; i < appRoutes.length; i++) {
    if (appRoutes[i].test(route)) return ${JSON.stringify(appShellPage)};
  }
  for (var j = 0; j < localePrefixes.length; j++) {
    var prefix = localePrefixes[j];
    if (route === prefix || route.indexOf(prefix + '/') === 0) return prefix + ${JSON.stringify(notFoundPage)};
  }
  return ${JSON.stringify(notFoundPage)};
}
`;
}

/** The viewer-request function (cloudfront-js-2.0): 301 for old URLs, else the file to serve. */
export function pathMappingCode(routes: SiteRoutes): string {
  return `${sharedCode(routes)}function handler(event) {
  var request = event.request;
  var moved = redirects[request.uri.replace(/\\/+$/, '')];
  if (typeof moved === 'string') {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: moved } } };
  }
  request.uri = fileFor(request.uri);
  return request;
}
`;
}

/**
 * The viewer-response function: the not-found page answers 404. A request function cannot set the
 * status of what the origin returns, so this one does. Whether CloudFront shows it the viewer's
 * URI or the one the request function rewrote, `fileFor` leads both to the not-found page. Only a
 * 200 changes: a 304 revalidates a stored 404 and must stay 304 (CloudFront runs no function on
 * origin errors of 400 and above).
 */
export function notFoundStatusCode(routes: SiteRoutes): string {
  return `${sharedCode(routes)}function handler(event) {
  var response = event.response;
  var file = fileFor(event.request.uri);
  if (response.statusCode === 200 && file.slice(-${notFoundPage.length}) === ${JSON.stringify(notFoundPage)}) {
    response.statusCode = 404;
    response.statusDescription = 'Not Found';
  }
  return response;
}
`;
}
