import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPersona, startPersona } from '#local/persona/index.ts';
import { type Json, type Receiver, startReceiver } from '#tests/fixtures/persona-sdk/receiver.ts';
import { freePort } from '#tests/helpers/free-port.ts';

const apiKey = 'persona_sandbox_local_test_key';
const templateId = 'itmpl_localTestTemplate000001';
let persona: RunningPersona;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  persona = await startPersona({
    port: await freePort(),
    apiKey,
    templateId,
    environmentId: 'env_localTest00000000000001',
    webhook: { url: receiver.url, secret: 'wbhsec_local_test_secret' },
    retryDelaysMs: [5, 5],
    log: false,
  });
});

afterAll(async () => {
  await persona?.close();
  await receiver?.close();
});

async function api(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${persona.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${apiKey}`,
      'Persona-Version': '2023-01-05',
      'Content-Type': 'application/json',
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

const createBody = (referenceId: string) => ({
  data: { attributes: { 'inquiry-template-id': templateId, 'reference-id': referenceId } },
});

describe('Persona emulator API', () => {
  it('creates an inquiry with a reference id in JSON:API shape', async () => {
    const { status, json } = await api('POST', '/api/v1/inquiries', createBody('auth0|user-1'));
    expect(status).toBe(201);
    expect(json.data.type).toBe('inquiry');
    expect(json.data.id).toMatch(/^inq_[A-Za-z0-9]+$/);
    const attrs = json.data.attributes;
    expect(attrs.status).toBe('created');
    expect(attrs['reference-id']).toBe('auth0|user-1');
    expect(new Date(attrs['created-at']).toISOString()).toBe(attrs['created-at']);
    expect(attrs['updated-at']).toBe(attrs['created-at']);
    for (const key of ['started-at', 'completed-at', 'decisioned-at', 'expired-at', 'redacted-at']) {
      expect(attrs[key]).toBeNull();
    }
    expect(attrs.fields).toEqual({});
    expect(json.data.relationships['inquiry-template'].data).toEqual({
      type: 'inquiry-template',
      id: templateId,
    });
    expect(json.included).toEqual([]);
    expect(typeof json.meta['session-token']).toBe('string');
  });

  it('accepts meta.auto-create-account-reference-id', async () => {
    const { status, json } = await api('POST', '/api/v1/inquiries', {
      data: { attributes: { 'inquiry-template-id': templateId } },
      meta: { 'auto-create-account-reference-id': 'auth0|user-meta' },
    });
    expect(status).toBe(201);
    expect(json.data.attributes['reference-id']).toBe('auth0|user-meta');
  });

  it('retrieves an inquiry, and 404s an unknown one', async () => {
    const created = await api('POST', '/api/v1/inquiries', createBody('auth0|user-2'));
    const { status, json } = await api('GET', `/api/v1/inquiries/${created.json.data.id}`);
    expect(status).toBe(200);
    expect(json.data.id).toBe(created.json.data.id);
    expect(json.data.attributes['reference-id']).toBe('auth0|user-2');
    const missing = await api('GET', '/api/v1/inquiries/inq_doesNotExist');
    expect(missing.status).toBe(404);
    expect(missing.json.errors[0].title).toBeTypeOf('string');
  });

  it('resume gives a new session token each time', async () => {
    const created = await api('POST', '/api/v1/inquiries', createBody('auth0|user-3'));
    const first = await api('POST', `/api/v1/inquiries/${created.json.data.id}/resume`);
    const second = await api('POST', `/api/v1/inquiries/${created.json.data.id}/resume`);
    expect(first.status).toBe(200);
    expect(first.json.data.id).toBe(created.json.data.id);
    const tokens = [
      created.json.meta['session-token'],
      first.json.meta['session-token'],
      second.json.meta['session-token'],
    ];
    for (const token of tokens) expect(token).toBeTypeOf('string');
    expect(new Set(tokens).size).toBe(3);
  });

  it('rejects a missing or wrong API key with a 401 JSON:API error', async () => {
    const missing = await fetch(`${persona.url}/api/v1/inquiries`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(createBody('x')),
    });
    expect(missing.status).toBe(401);
    const missingJson = (await missing.json()) as { errors: { title: string; details: string }[] };
    expect(missingJson.errors[0]?.title).toBeTypeOf('string');
    expect(missingJson.errors[0]?.details).toBeTypeOf('string');
    const wrong = await api('GET', '/api/v1/inquiries/inq_x', undefined, {
      Authorization: 'Bearer persona_wrong',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json.errors[0].title).toBeTypeOf('string');
  });

  it('replays the same response for the same Idempotency-Key and body', async () => {
    const headers = { 'Idempotency-Key': 'idem-key-1' };
    const first = await api('POST', '/api/v1/inquiries', createBody('auth0|idem'), headers);
    const second = await api('POST', '/api/v1/inquiries', createBody('auth0|idem'), headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    const other = await api('POST', '/api/v1/inquiries', createBody('auth0|idem'), {
      'Idempotency-Key': 'idem-key-2',
    });
    expect(other.json.data.id).not.toBe(first.json.data.id);
    const conflict = await api('POST', '/api/v1/inquiries', createBody('auth0|other'), headers);
    expect(conflict.status).toBe(409);
  });

  it('rejects an unknown template in Persona error shape', async () => {
    const { status, json } = await api('POST', '/api/v1/inquiries', {
      data: { attributes: { 'inquiry-template-id': 'itmpl_unknown', 'reference-id': 'x' } },
    });
    expect(status).toBe(422);
    expect(json.errors[0].title).toBeTypeOf('string');
    expect(json.errors[0].details).toContain('itmpl_unknown');
  });

  it('redacts an inquiry', async () => {
    const created = await api('POST', '/api/v1/inquiries', createBody('auth0|redact'));
    const { status, json } = await api('POST', `/api/v1/inquiries/${created.json.data.id}/redact`);
    expect(status).toBe(200);
    expect(json.data.attributes['redacted-at']).toBeTypeOf('string');
    expect(json.data.attributes['reference-id']).toBeNull();
    const fetched = await api('GET', `/api/v1/inquiries/${created.json.data.id}`);
    expect(fetched.json.data.attributes['redacted-at']).toBe(json.data.attributes['redacted-at']);
  });

  it('registers a webhook subscriber and returns its secret', async () => {
    const { status, json } = await api('POST', '/api/v1/webhooks', {
      data: { attributes: { url: 'http://127.0.0.1:9/hook', 'enabled-events': ['inquiry.approved'] } },
    });
    expect(status).toBe(201);
    expect(json.data.type).toBe('webhook');
    expect(json.data.attributes.secret).toMatch(/^wbhsec_/);
    expect(json.data.attributes['enabled-events']).toEqual(['inquiry.approved']);
  });

  it('creates the inquiry itself when the widget is opened in template mode', async () => {
    const q = new URLSearchParams({
      'inquiry-template-id': templateId,
      'reference-id': 'auth0|template-mode',
    });
    const html = await (await fetch(`${persona.url}/widget?${q}`)).text();
    expect(html).toContain('<h1>Verify your identity</h1>');
    const { json } = await api('GET', '/api/v1/inquiries?filter%5Breference-id%5D=auth0%7Ctemplate-mode');
    expect(json.data).toHaveLength(1);
    expect(html).toContain(json.data[0].id);
    expect(json.data[0].attributes.status).toBe('created');
  });

  it('keeps inquiries across restarts when given a dataDir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'persona-emulator-'));
    const options = {
      apiKey,
      templateId,
      environmentId: 'env_localTest00000000000001',
      webhook: { url: receiver.url, secret: 'wbhsec_local_test_secret' },
      log: false,
      dataDir,
    };
    const first = await startPersona({ ...options, port: await freePort() });
    const created = await fetch(`${first.url}/api/v1/inquiries`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(createBody('auth0|persisted')),
    });
    const id = ((await created.json()) as Json).data.id;
    await first.close();
    const second = await startPersona({ ...options, port: await freePort() });
    try {
      const fetched = await fetch(`${second.url}/api/v1/inquiries/${id}`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      expect(fetched.status).toBe(200);
      expect(((await fetched.json()) as Json).data.attributes['reference-id']).toBe('auth0|persisted');
    } finally {
      await second.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('serves an index page listing inquiries', async () => {
    const created = await api('POST', '/api/v1/inquiries', createBody('auth0|index'));
    const html = await (await fetch(`${persona.url}/`)).text();
    expect(html).toContain('<h1>Persona emulator</h1>');
    expect(html).toContain(created.json.data.id);
  });
});

describe('an inquiry with its verifications (?include=verifications, ADR 0082)', () => {
  async function finished(outcome: 'approve' | 'decline' | 'review' | 'fail') {
    const created = await api('POST', '/api/v1/inquiries', createBody(`auth0|checks-${outcome}`));
    const id = String(created.json.data.id);
    const answer = await fetch(`${persona.url}/widget/api/inquiries/${id}/outcome`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionToken: created.json.meta['session-token'], outcome }),
    });
    expect(answer.status).toBe(200);
    return id;
  }

  it.each([
    ['review', 'needs_review', ['selfie_id_comparison']],
    ['decline', 'declined', ['id_tamper_detection', 'id_fabrication_detection']],
    ['fail', 'failed', ['id_unprocessable_submission_detection']],
    ['approve', 'approved', []],
  ] as const)(
    'after "%s" lists the verifications with the failing checks (%s)',
    async (outcome, status, failing) => {
      const id = await finished(outcome);
      const plain = await api('GET', `/api/v1/inquiries/${id}`);
      expect(plain.json.included).toEqual([]);
      const related = plain.json.data.relationships.verifications.data as { type: string; id: string }[];
      expect(related.map((entry) => entry.type)).toEqual([
        'verification/government-id',
        'verification/selfie',
      ]);

      const { status: code, json } = await api('GET', `/api/v1/inquiries/${id}?include=verifications`);
      expect(code).toBe(200);
      expect(json.data.attributes.status).toBe(status);
      const included = json.included as {
        type: string;
        id: string;
        attributes: { status: string; checks: { name: string; status: string; reasons: string[] }[] };
      }[];
      expect(included.map((entry) => ({ type: entry.type, id: entry.id }))).toEqual(related);
      const failed = included.flatMap((entry) =>
        entry.attributes.checks.filter((check) => check.status === 'failed').map((check) => check.name),
      );
      expect(failed).toEqual(failing);
      for (const entry of included) {
        expect(entry.attributes.status).toBe(
          entry.attributes.checks.some((check) => check.status === 'failed') ? 'failed' : 'passed',
        );
        for (const check of entry.attributes.checks) {
          expect(check).toEqual({
            name: expect.any(String),
            status: expect.stringMatching(/^(passed|failed|not_applicable)$/),
            reasons: check.status === 'failed' ? [expect.any(String)] : [],
            requirement: 'required',
            metadata: {},
          });
        }
      }
    },
  );

  it("is what the backend's Persona client reads as the evidence", async () => {
    const { createPersonaClient } = await import('#lambdas/adapters/persona-client.ts');
    const id = await finished('review');
    const client = createPersonaClient({ baseUrl: persona.url, apiKey: async () => apiKey });
    const evidence = await client.getInquiryEvidence(id);
    expect(evidence).toMatchObject({ inquiryId: id, status: 'needs_review', redactedAt: null });
    expect(evidence.verifications.map((v) => [v.type, v.status])).toEqual([
      ['verification/government-id', 'passed'],
      ['verification/selfie', 'failed'],
    ]);
    expect(evidence.verifications[1]?.checks.find((check) => check.status === 'failed')).toEqual({
      name: 'selfie_id_comparison',
      status: 'failed',
      reasons: ['The face in the selfie does not match the portrait on the ID.'],
    });
  });
});
