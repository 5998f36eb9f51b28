import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, PayloadTooLargeError, readRawBody, sendJson } from '#local/http.ts';

export { escapeHtml, sendJson };

const MAX_BODY = 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly details?: string,
  ) {
    super(details ?? title);
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  try {
    return (await readRawBody(req, MAX_BODY)).toString('utf8');
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw new HttpError(413, 'Payload too large');
    throw error;
  }
}

export function parseJsonBody(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // fall through
  }
  throw new HttpError(400, 'Bad request', 'Request body must be a JSON object');
}

/** Persona's JSON:API error shape. */
export function sendError(res: ServerResponse, status: number, title: string, details?: string): void {
  sendJson(res, status, { errors: [details === undefined ? { title } : { title, details }] });
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
  });
  res.end(html);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Persona-looking id: prefix + 24 base62 characters. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** JSON safe to embed inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}
