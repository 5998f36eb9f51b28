import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, PayloadTooLargeError, readRawBody as readLimited, sendJson } from '#local/http.ts';

export { escapeHtml, sendJson };

const BODY_LIMIT = 256 * 1024;

export class BodyError extends Error {}

export async function readRawBody(req: IncomingMessage): Promise<string> {
  try {
    return (await readLimited(req, BODY_LIMIT)).toString('utf8');
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw new BodyError('request entity too large');
    throw error;
  }
}

export function contentType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Parses a JSON or form body into an object (form values are strings). */
export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return parseBody(req, await readRawBody(req));
}

/** Parses a body already read (`readRawBody`) as `readBody` does. */
export function parseBody(req: IncomingMessage, raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  const type = contentType(req);
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new BodyError('Invalid JSON body');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new BodyError('The body must be a JSON object');
    }
    return parsed as Record<string, unknown>;
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  throw new BodyError(`Unsupported content type ${type}`);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action *; frame-ancestors 'none'; base-uri 'none'",
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store' });
  res.end();
}
