import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { originVerifyHeader, viewerAddressHeader } from '#lambdas/http/edge.ts';

// What CloudFront's `/api/*` behaviour does to a request on its way to the API (infra/site), for
// the local web servers that play its part: the origin secret as a custom origin header, the
// viewer's address from the connection in CloudFront-Viewer-Address, the viewer appended to
// X-Forwarded-For, and no viewer-supplied copy of the headers CloudFront itself sets.

/** Headers a viewer may not set: CloudFront overwrites its own headers and the custom origin header. */
export function isEdgeHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === originVerifyHeader || lower.startsWith('cloudfront-');
}

/** `ip:port` as CloudFront writes it (IPv6 without brackets). */
export function viewerAddress(req: IncomingMessage): string {
  return `${req.socket.remoteAddress ?? '127.0.0.1'}:${req.socket.remotePort ?? 0}`;
}

/** The headers the edge adds or replaces, for a request from this connection. */
export function edgeHeaders(req: IncomingMessage, originSecret: string): Record<string, string> {
  const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  return {
    [originVerifyHeader]: originSecret,
    [viewerAddressHeader]: viewerAddress(req),
    'x-forwarded-for': forwardedFor,
  };
}

/** The viewer's headers as the API receives them through the edge (Host is the caller's to set). */
export function originRequestHeaders(req: IncomingMessage, originSecret: string): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!isEdgeHeader(name)) headers[name] = value;
  return { ...headers, ...edgeHeaders(req, originSecret) };
}
