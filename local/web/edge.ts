// The local dist server's stand-in for CloudFront's edge: it runs the very CloudFront Functions the
// site deploys (infra/site/path-mapping.ts) with events of CloudFront's shape, so a path answers
// locally what it answers in AWS.
import { runInNewContext } from 'node:vm';
import { notFoundStatusCode, pathMappingCode, type SiteRoutes } from '#infra/site/path-mapping.ts';

type Handler = (event: unknown) => unknown;

/** What the viewer-request function decided. */
export type EdgeDecision =
  | { kind: 'origin'; uri: string }
  | { kind: 'response'; status: number; headers: Record<string, string> };

export interface SiteEdge {
  /** Runs the viewer-request function for a request of this method and (still encoded) path. */
  viewerRequest(method: string, uri: string): EdgeDecision;
  /** Runs the viewer-response function on a response of this status to this path; returns the status sent. */
  viewerResponse(method: string, uri: string, status: number): number;
}

function compile(code: string, name: string): Handler {
  // A fresh context per function, as CloudFront gives each function its own global scope.
  const context: { handler?: Handler } = {};
  runInNewContext(code, context, { filename: `cloudfront-function:${name}` });
  if (typeof context.handler !== 'function') throw new Error(`${name}: the code defines no handler`);
  return context.handler;
}

const request = (method: string, uri: string) => ({
  method,
  uri,
  querystring: {},
  headers: {},
  cookies: {},
});

export function siteEdge(routes: SiteRoutes): SiteEdge {
  const onRequest = compile(pathMappingCode(routes), 'path-mapping');
  const onResponse = compile(notFoundStatusCode(routes), 'not-found-status');
  return {
    viewerRequest(method, uri) {
      const result = onRequest({
        version: '1.0',
        context: { eventType: 'viewer-request' },
        viewer: { ip: '127.0.0.1' },
        request: request(method, uri),
      }) as { uri?: string; statusCode?: number; headers?: Record<string, { value: string }> };
      if (typeof result.statusCode === 'number') {
        const headers = Object.fromEntries(
          Object.entries(result.headers ?? {}).map(([name, { value }]) => [name, value]),
        );
        return { kind: 'response', status: result.statusCode, headers };
      }
      return { kind: 'origin', uri: result.uri ?? uri };
    },
    viewerResponse(method, uri, status) {
      // CloudFront runs no function on origin errors (400 and above).
      if (status >= 400) return status;
      const result = onResponse({
        version: '1.0',
        context: { eventType: 'viewer-response' },
        viewer: { ip: '127.0.0.1' },
        request: request(method, uri),
        response: { statusCode: status, statusDescription: '', headers: {}, cookies: {} },
      }) as { statusCode: number };
      return result.statusCode;
    },
  };
}
