import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonaClient, PersonaApiError, personaApiVersion } from '#lambdas/adapters/persona-client.ts';

// Against a small HTTP server standing in for Persona, with faults on demand.

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const seen: Seen[] = [];
let mode: 'ok' | 'slow' | 'throttled' | 'garbage' = 'ok';
let server: Server;
let baseUrl: string;

const inquiry = (id: string) => ({
  data: {
    type: 'inquiry',
    id,
    attributes: {
      status: 'created',
      'reference-id': 'auth0|u1',
      'extra-field': 1,
      'completed-at': '2026-11-21T06:00:01.000Z',
      'decisioned-at': '2026-11-21T06:00:02.000Z',
      'failed-at': null,
    },
  },
  meta: { 'session-token': 'tok_1' },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (mode === 'slow') return void setTimeout(() => res.end('{}'), 500);
      if (mode === 'throttled') {
        res.writeHead(429, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({ errors: [{ title: 'Rate limit exceeded', details: 'reference auth0|u1' }] }),
        );
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(mode === 'garbage' ? '<html>' : JSON.stringify(inquiry('inq_1')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (timeoutMs = 2000) =>
  createPersonaClient({ baseUrl, apiKey: async () => 'persona_key', timeoutMs });

describe('PersonaClient', () => {
  it('creates an inquiry with the template, reference id, version, key and idempotency key', async () => {
    mode = 'ok';
    const created = await client().createInquiry({
      referenceId: 'auth0|u1',
      templateId: 'itmpl_1',
      idempotencyKey: 'key-1',
    });
    expect(created).toEqual({
      inquiryId: 'inq_1',
      status: 'created',
      referenceId: 'auth0|u1',
      sessionToken: 'tok_1',
      redactedAt: null,
    });
    const request = seen.at(-1);
    expect(request).toMatchObject({ method: 'POST', url: '/api/v1/inquiries' });
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer persona_key',
      'persona-version': personaApiVersion,
      'idempotency-key': 'key-1',
    });
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      data: { attributes: { 'inquiry-template-id': 'itmpl_1', 'reference-id': 'auth0|u1' } },
    });
  });

  it('sends an Idempotency-Key on every POST and none on GET', async () => {
    mode = 'ok';
    await client().resumeInquiry('inq_1');
    expect(seen.at(-1)?.headers['idempotency-key']).toEqual(expect.any(String));
    await client().redactInquiry('inq_1');
    expect(seen.at(-1)).toMatchObject({ url: '/api/v1/inquiries/inq_1/redact' });
    expect(seen.at(-1)?.headers['idempotency-key']).toBe('redact-inq_1');
    await client().getInquiry('inq_1');
    expect(seen.at(-1)?.headers['idempotency-key']).toBeUndefined();
  });

  it('gives up after its timeout with a retryable error', async () => {
    mode = 'slow';
    const error = await client(100)
      .getInquiry('inq_1')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PersonaApiError);
    expect((error as PersonaApiError).retryable).toBe(true);
  });

  it('reports a 429 as retryable without echoing the error details (they may hold personal data)', async () => {
    mode = 'throttled';
    const error = (await client()
      .getInquiry('inq_1')
      .catch((caught: unknown) => caught)) as PersonaApiError;
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('Rate limit exceeded');
    expect(error.message).not.toContain('auth0|u1');
  });

  it("reads an inquiry with Persona's time of each step, null when it has not happened (ADR 0038)", async () => {
    mode = 'ok';
    expect(await client().getInquirySnapshot('inq_1')).toEqual({
      inquiryId: 'inq_1',
      status: 'created',
      referenceId: 'auth0|u1',
      sessionToken: 'tok_1',
      redactedAt: null,
      completedAt: '2026-11-21T06:00:01.000Z',
      failedAt: null,
      markedForReviewAt: null,
      decisionedAt: '2026-11-21T06:00:02.000Z',
    });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/api/v1/inquiries/inq_1' });
  });

  it('refuses an answer that is not an inquiry document', async () => {
    mode = 'garbage';
    await expect(client().getInquiry('inq_1')).rejects.toMatchObject({ status: 502 });
  });
});
