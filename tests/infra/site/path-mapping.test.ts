import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  appShellPage,
  functionCodeLimitBytes,
  notFoundPage,
  notFoundStatusCode,
  pathMappingCode,
  type SiteRoutes,
  siteRoutes,
} from '#infra/site/path-mapping.ts';
import { bucketKeys, sitePathCases } from '#tests/helpers/site-paths.ts';
import { appPaths, redirects } from '#web/config/paths.ts';
import { isKnownSitePath as isKnownPath, localizedPublicPaths } from '#web/config/site-paths.ts';

// The CloudFront Functions are plain JavaScript: run exactly the code that is deployed, each in a
// context of its own as CloudFront does, with events of CloudFront's shape.
type Handler = (event: object) => {
  uri?: string;
  statusCode?: number;
  headers?: Record<string, { value: string }>;
};
function compile(code: string): Handler {
  const context: { handler?: Handler } = {};
  runInNewContext(code, context);
  return context.handler as Handler;
}
const request = (uri: string) => ({ method: 'GET', uri, querystring: {}, headers: {}, cookies: {} });

/**
 * CloudFront in front of a bucket holding `keys`: the request function, S3 (no function runs on
 * its 404), then the response function. The docs leave open whether the response function sees
 * the viewer's URI or the rewritten one, so the simulation runs either.
 */
function cloudFront(routes: SiteRoutes, keys: readonly string[], responseSees: 'viewer' | 'rewritten') {
  const onRequest = compile(pathMappingCode(routes));
  const onResponse = compile(notFoundStatusCode(routes));
  const bucket = new Set(keys);
  return (path: string) => {
    const uri = path.split('?')[0] ?? '/';
    const decided = onRequest({
      version: '1.0',
      context: { eventType: 'viewer-request' },
      request: request(uri),
    });
    if (decided.statusCode !== undefined) {
      return { status: decided.statusCode, location: decided.headers?.location?.value };
    }
    const key = decided.uri ?? uri;
    if (!bucket.has(key)) return { status: 404, file: null };
    const answered = onResponse({
      version: '1.0',
      context: { eventType: 'viewer-response' },
      request: request(responseSees === 'viewer' ? uri : key),
      response: { statusCode: 200, statusDescription: 'OK', headers: {}, cookies: {} },
    });
    return { status: answered.statusCode, file: key };
  };
}

describe.each(['viewer', 'rewritten'] as const)(
  'the edge functions, with the response function seeing the %s URI',
  (responseSees) => {
    const edge = cloudFront(siteRoutes, bucketKeys(siteRoutes), responseSees);
    it.each(sitePathCases(siteRoutes))('answers $path with $status', ({ path, ...expected }) => {
      expect(edge(path)).toEqual(expected);
    });
  },
);

describe('the path mapping', () => {
  it('knows every route of the registry, and only those', () => {
    expect(new Set(siteRoutes.pages)).toEqual(new Set(localizedPublicPaths.map((entry) => entry.path)));
    expect(siteRoutes.pages).toContain('/de/pricing');
    expect(siteRoutes.app).toEqual(appPaths);
    expect(siteRoutes.redirects).toEqual(redirects);
    const edge = cloudFront(siteRoutes, bucketKeys(siteRoutes), 'viewer');
    for (const { path } of sitePathCases(siteRoutes)) {
      if (/\.\w+$/.test(path.split('?')[0] ?? '')) continue;
      expect(edge(path).status === 404, path).toBe(!isKnownPath(path.split('?')[0] ?? ''));
    }
  });

  it('sends an app route with a parameter to the app shell, one segment per parameter', () => {
    const routes: SiteRoutes = { pages: ['/'], app: ['/orgs/:orgId/members'], redirects: {} };
    const edge = cloudFront(routes, bucketKeys(routes), 'viewer');
    expect(edge('/orgs/acme/members')).toEqual({ status: 200, file: appShellPage });
    expect(edge('/orgs/acme/members/')).toEqual({ status: 200, file: appShellPage });
    expect(edge('/orgs/acme/x/members')).toEqual({ status: 404, file: notFoundPage });
    expect(edge('/orgs//members')).toEqual({ status: 404, file: notFoundPage });
    expect(() => pathMappingCode({ ...routes, app: ['/files/*'] })).toThrow(/splat/);
  });

  it('leaves a 304 alone, so a browser revalidating a stored 404 keeps it', () => {
    const onResponse = compile(notFoundStatusCode(siteRoutes));
    const answer = (statusCode: number) =>
      onResponse({
        version: '1.0',
        context: { eventType: 'viewer-response' },
        request: request('/no/such/page'),
        response: { statusCode, statusDescription: '', headers: {}, cookies: {} },
      }).statusCode;
    expect(answer(200)).toBe(404);
    expect(answer(304)).toBe(304);
    expect(answer(206)).toBe(206);
  });

  it('fits the 10 KB a CloudFront Function may hold', () => {
    for (const code of [pathMappingCode(siteRoutes), notFoundStatusCode(siteRoutes)]) {
      expect(Buffer.byteLength(code)).toBeLessThan(functionCodeLimitBytes);
    }
  });
});
