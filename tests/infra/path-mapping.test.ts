import { describe, expect, it } from 'vitest';
import { pathMappingCode } from '#infra/site/path-mapping.ts';

// The CloudFront Function is plain JavaScript: run exactly the code that is deployed.
type Handler = (event: { request: { uri: string; method: string } }) => { uri: string };
const handler = new Function(
  `${pathMappingCode(['/pricing', '/legal/imprint'])}; return handler;`,
)() as Handler;
const served = (uri: string) => handler({ request: { uri, method: 'GET' } }).uri;

describe('the viewer-request path mapping', () => {
  it('serves a prerendered page for its route, with or without a trailing slash', () => {
    expect(served('/pricing')).toBe('/pricing/index.html');
    expect(served('/pricing/')).toBe('/pricing/index.html');
    expect(served('/legal/imprint')).toBe('/legal/imprint/index.html');
  });

  it('serves the home page for /', () => {
    expect(served('/')).toBe('/index.html');
  });

  it('sends client-side routes to the fallback page', () => {
    expect(served('/some/client/route')).toBe('/index.html');
    expect(served('/dashboard/')).toBe('/index.html');
    expect(served('/pricing/extra')).toBe('/index.html');
  });

  it('leaves files alone, so a missing chunk stays a 404 instead of becoming HTML', () => {
    expect(served('/assets/app-x.js')).toBe('/assets/app-x.js');
    expect(served('/assets/missing-chunk.js')).toBe('/assets/missing-chunk.js');
    expect(served('/favicon.ico')).toBe('/favicon.ico');
    expect(served('/sitemap.xml')).toBe('/sitemap.xml');
    expect(served('/pricing/index.html')).toBe('/pricing/index.html');
  });

  it('does not mistake a route for a prototype key or a dotfile for an extension', () => {
    expect(served('/constructor')).toBe('/index.html');
    expect(served('/.well-known')).toBe('/index.html');
  });
});

describe('old short URLs', () => {
  const withRedirects = new Function(
    `${pathMappingCode(['/pricing', '/terms-and-conditions'], { '/terms': '/terms-and-conditions' })}; return handler;`,
  )() as (event: { request: { uri: string } }) => {
    statusCode?: number;
    headers?: { location: { value: string } };
  };

  it('answers 301 to the full page, with or without a trailing slash', () => {
    for (const uri of ['/terms', '/terms/']) {
      const answer = withRedirects({ request: { uri } });
      expect(answer.statusCode).toBe(301);
      expect(answer.headers?.location.value).toBe('/terms-and-conditions');
    }
  });

  it('leaves other paths to the path mapping', () => {
    expect(withRedirects({ request: { uri: '/pricing' } })).toEqual({ uri: '/pricing/index.html' });
  });
});
