// The viewer-request CloudFront Function of the site's default (S3) behaviour. It reproduces what
// the local dist server does (local/web/index.ts `resolveStaticPath`), without S3 lookups:
// - `/x` and `/x/` -> `/x/index.html` when the build prerendered `x`;
// - any other path without a file extension -> the fallback page (client-side routes);
// - paths with an extension stay as they are, so a missing chunk is a real 404 (never index.html);
// - the site's old short URLs (web/src/app/paths.ts `redirects`) answer 301, as local/web does.
// `/api/*` has its own behaviour and never reaches this function, so API errors stay JSON.

/** The page client-side routes render from; the web build's SPA fallback. */
export const fallbackPage = '/index.html';

/**
 * The function's source (cloudfront-js-2.0, plain JS), with the build's prerendered routes inlined:
 * a CloudFront Function cannot ask S3 whether `/x/index.html` exists.
 * `prerendered` holds route paths without trailing slash, e.g. `/pricing`, `/legal/imprint`.
 */
export function pathMappingCode(
  prerendered: readonly string[],
  redirects: Readonly<Record<string, string>> = {},
): string {
  const routes = Object.fromEntries(
    [...new Set(prerendered.map((route) => route.replace(/\/+$/, '')).filter(Boolean))]
      .sort()
      .map((route) => [route, 1]),
  );
  return `var prerendered = ${JSON.stringify(routes)};
var redirects = ${JSON.stringify(redirects)};
var fallbackPage = ${JSON.stringify(fallbackPage)};
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var moved = redirects[uri.replace(/\\/+$/, '')];
  if (moved) {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: moved } } };
  }
  var last = uri.slice(uri.lastIndexOf('/') + 1);
  // Same test as path.extname: a leading dot ('.well-known') is not an extension.
  if (last.lastIndexOf('.') > 0) return request;
  var route = uri.replace(/\\/+$/, '');
  if (route === '') {
    request.uri = '/index.html';
  } else if (prerendered[route] === 1) {
    request.uri = route + '/index.html';
  } else {
    request.uri = fallbackPage;
  }
  return request;
}
`;
}
