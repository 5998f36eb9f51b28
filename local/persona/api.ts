import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PersonaEmulator } from './emulator.ts';
import { HttpError, newId, parseJsonBody, readBody, sendError, sendJson } from './http-util.ts';
import { type InquiryField, type InquiryRecord, inquiryResource } from './store.ts';
import { verificationResource } from './verifications.ts';

function authorized(req: IncomingMessage, apiKey: string): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (match?.[1] === undefined) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(apiKey);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, 'Bad request', `${name} must be a string`);
  return value;
}

/** Prefill: `fields: {key: value}` or `{key: {type, value}}`. */
function toFields(value: unknown): Record<string, InquiryField> | undefined {
  if (value === undefined || value === null) return undefined;
  const out: Record<string, InquiryField> = {};
  for (const [key, raw] of Object.entries(record(value))) {
    const obj = record(raw);
    if ('value' in obj && typeof obj.type === 'string') out[key] = { type: obj.type, value: obj.value };
    else
      out[key] = {
        type: typeof raw === 'number' ? 'number' : typeof raw === 'boolean' ? 'boolean' : 'string',
        value: raw,
      };
  }
  return out;
}

/** `?include=verifications` puts the inquiry's verifications in `included`, as Persona does. */
function single(
  inquiry: InquiryRecord,
  meta?: Record<string, unknown>,
  include: readonly string[] = [],
): Record<string, unknown> {
  const included = include.includes('verifications')
    ? (inquiry.verifications ?? []).map(verificationResource)
    : [];
  return { data: inquiryResource(inquiry), included, ...(meta === undefined ? {} : { meta }) };
}

/** Handles `/api/v1/...`; returns false when the path is not an API path. */
export async function handleApi(
  emulator: PersonaEmulator,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (!url.pathname.startsWith('/api/v1/')) return false;
  if (!authorized(req, emulator.options.apiKey)) {
    sendError(
      res,
      401,
      'Must be authenticated to access this endpoint',
      'Missing or invalid API key in the Authorization header (Bearer <key>)',
    );
    return true;
  }
  const method = req.method ?? 'GET';
  const raw = method === 'POST' || method === 'PATCH' || method === 'DELETE' ? await readBody(req) : '';
  const idempotencyKey = req.headers['idempotency-key'];
  const key = typeof idempotencyKey === 'string' && idempotencyKey !== '' ? idempotencyKey : undefined;
  const fingerprint = createHash('sha256').update(`${method} ${url.pathname}\n${raw}`).digest('hex');
  if (method === 'POST' && key !== undefined) {
    const previous = emulator.store.idempotentGet(key, fingerprint);
    if (previous === 'conflict') {
      sendError(res, 409, 'Conflict', 'Idempotency-Key was already used with a different request');
      return true;
    }
    if (previous !== undefined) {
      res.setHeader('Idempotent-Replayed', 'true');
      sendJson(res, previous.status, previous.body);
      return true;
    }
  }
  const reply = (status: number, body: unknown) => {
    if (method === 'POST' && key !== undefined && status < 500) {
      emulator.store.idempotentSet(key, fingerprint, status, body);
    }
    sendJson(res, status, body);
  };

  const parts = url.pathname.split('/').filter(Boolean).slice(2); // drop 'api', 'v1'
  const [collection, id, action] = parts;

  if (collection === 'inquiries') {
    if (id === undefined && method === 'POST') {
      const body = parseJsonBody(raw);
      const data = record(body.data);
      const attributes = record(data.attributes);
      const meta = record(body.meta);
      const referenceId =
        optionalString(attributes['reference-id'], 'reference-id') ??
        optionalString(meta['auto-create-account-reference-id'], 'auto-create-account-reference-id') ??
        null;
      const templateId =
        optionalString(attributes['inquiry-template-id'], 'inquiry-template-id') ??
        optionalString(attributes['template-id'], 'template-id');
      const fields = toFields(attributes.fields);
      const note = optionalString(attributes.note, 'note');
      const tags = Array.isArray(attributes.tags) ? attributes.tags.map(String) : undefined;
      const inquiry = emulator.createInquiry({
        templateId,
        referenceId,
        ...(fields === undefined ? {} : { fields }),
        ...(note === undefined ? {} : { note }),
        ...(tags === undefined ? {} : { tags }),
      });
      reply(201, single(inquiry, { 'session-token': inquiry.sessionToken }));
      return true;
    }
    if (id === undefined && method === 'GET') {
      const referenceId = url.searchParams.get('filter[reference-id]');
      const status = url.searchParams.get('filter[status]');
      const items = emulator.store
        .list()
        .filter(
          (i) =>
            (referenceId === null || i.referenceId === referenceId) &&
            (status === null || i.status === status),
        )
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
      reply(200, { data: items.map(inquiryResource), links: { prev: null, next: null } });
      return true;
    }
    if (id !== undefined) {
      const inquiry = emulator.getInquiry(id);
      if (action === undefined && method === 'GET') {
        const include = (url.searchParams.get('include') ?? '').split(',').map((part) => part.trim());
        reply(200, single(inquiry, undefined, include));
        return true;
      }
      if (action === 'resume' && method === 'POST') {
        const token = emulator.resume(inquiry);
        reply(200, single(inquiry, { 'session-token': token }));
        return true;
      }
      if (action === 'expire' && method === 'POST') {
        emulator.expire(inquiry);
        reply(200, single(inquiry));
        return true;
      }
      if ((action === 'redact' && method === 'POST') || (action === undefined && method === 'DELETE')) {
        emulator.redact(inquiry);
        reply(200, single(inquiry));
        return true;
      }
    }
  }

  if (collection === 'webhooks' && id === undefined && method === 'POST') {
    const body = parseJsonBody(raw);
    const attributes = record(record(body.data).attributes);
    const hookUrl = optionalString(attributes.url, 'url');
    if (hookUrl === undefined || !URL.canParse(hookUrl)) {
      throw new HttpError(422, 'Unprocessable entity', 'url must be an absolute URL');
    }
    const events = attributes['enabled-events'];
    const enabledEvents = Array.isArray(events) && events.length > 0 ? events.map(String) : ['*'];
    const subscriber = emulator.webhooks.addSubscriber(hookUrl, newId('wbhsec'), enabledEvents);
    reply(201, {
      data: {
        type: 'webhook',
        id: subscriber.id,
        attributes: {
          status: 'enabled',
          url: subscriber.url,
          'enabled-events': subscriber.enabledEvents,
          'api-version': req.headers['persona-version'] ?? '2023-01-05',
          'api-key-inflection': 'kebab',
          'payload-filter': {},
          secret: subscriber.secret,
          'created-at': subscriber.createdAt,
        },
      },
    });
    return true;
  }

  sendError(res, 404, 'Not found', `No route for ${method} ${url.pathname}`);
  return true;
}
