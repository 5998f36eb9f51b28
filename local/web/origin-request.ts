import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { originVerifyHeader, viewerIpHeader } from '#lambdas/http/edge.ts';

// What CloudFront's `/api/*` behaviour does to a request on its way to the API (infra/site), for
// the local web servers that play its part: the origin secret as a custom origin header, the
// viewer's IP from the connection in x-viewer-ip (the ViewerIp CloudFront Function's part), the
// viewer appended to X-Forwarded-For, and no viewer-supplied copy of the headers the edge sets.

/**
 * Headers a viewer may not set: CloudFront overwrites its own headers and the custom origin
 * header, and the ViewerIp function the viewer's IP.
 */
export function isEdgeHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === originVerifyHeader || lower === viewerIpHeader || lower.startsWith('cloudfront-');
}

/** The viewer's IP as `event.viewer.ip` gives it. */
export function viewerIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? '127.0.0.1';
}

/** The headers the edge adds or replaces, for a request from this connection. */
export function edgeHeaders(req: IncomingMessage, originSecret: string): Record<string, string> {
  const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  return {
    [originVerifyHeader]: originSecret,
    [viewerIpHeader]: viewerIp(req),
    'x-forwarded-for': forwardedFor,
  };
}

/** The viewer's headers as the API receives them through the edge (Host is the caller's to set). */
export function originRequestHeaders(req: IncomingMessage, originSecret: string): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!isEdgeHeader(name)) headers[name] = value;
  return { ...headers, ...edgeHeaders(req, originSecret) };
}
