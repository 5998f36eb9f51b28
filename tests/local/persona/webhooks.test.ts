import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { receivedFromWebhook } from '#lambdas/domain/kyc/persona-event.ts';
import { type PersonaOptions, type RunningPersona, startPersona } from '#local/persona/index.ts';
import {
  type Json,
  type ReceivedRequest,
  type Receiver,
  startReceiver,
  waitFor,
} from '#tests/fixtures/persona-sdk/receiver.ts';
import { freePort } from '#tests/helpers/free-port.ts';

const apiKey = 'persona_sandbox_local_webhook_key';
const templateId = 'itmpl_localWebhookTemplate01';
const secret = 'wbhsec_local_webhook_secret_1';
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function setup(
  answer: (n: number) => number,
  extra: Partial<PersonaOptions> = {},
  delayMs = 0,
): Promise<{ persona: RunningPersona; receiver: Receiver }> {
  const receiver = await startReceiver(answer, delayMs);
  cleanups.push(() => receiver.close());
  const persona = await startPersona({
    port: await freePort(),
    apiKey,
    templateId,
    environmentId: 'env_localWebhook0000000001',
    webhook: { url: receiver.url, secret },
    log: false,
    ...extra,
  });
  cleanups.push(() => persona.close());
  return { persona, receiver };
}

async function post(persona: RunningPersona, path: string, body: unknown, auth = true): Promise<Json> {
  const response = await fetch(`${persona.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  return response.json();
}

async function createInquiry(
  persona: RunningPersona,
  referenceId: string,
): Promise<{ id: string; token: string }> {
  const json = await post(persona, '/api/v1/inquiries', {
    data: { attributes: { 'inquiry-template-id': templateId, 'reference-id': referenceId } },
  });
  return { id: json.data.id, token: json.meta['session-token'] };
}

/** Independent check of Persona-Signature over the raw bytes received. */
function verify(request: ReceivedRequest, key: string): boolean {
  const header = String(request.headers['persona-signature']);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (match === null) return false;
  const [, t = '', v1 = ''] = match;
  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${t}.`), request.raw]))
    .digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex')) && Math.abs(Date.now() / 1000 - Number(t)) < 60;
}

const parse = (request: ReceivedRequest) => JSON.parse(request.raw.toString('utf8'));

describe('Persona emulator webhooks', { timeout: 15_000 }, () => {
  it("sends the inquiry's verifications in each event's included, as its API lists them, failed checks and all", async () => {
    const { persona, receiver } = await setup(() => 200);
    const { id, token } = await createInquiry(persona, 'auth0|flagged-user');
    await post(persona, `/widget/api/inquiries/${id}/start`, { sessionToken: token }, false);
    await post(
      persona,
      `/widget/api/inquiries/${id}/outcome`,
      { sessionToken: token, outcome: 'review' },
      false,
    );
    await waitFor(() => receiver.received.length >= 4, 5000, 'four events');
    const review = receiver.received
      .map(parse)
      .find((e) => e.data.attributes.name === 'inquiry.marked-for-review');
    const included = review?.data.attributes.payload.included as Json[];
    const api = await fetch(`${persona.url}/api/v1/inquiries/${id}?include=verifications`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(included).toEqual(((await api.json()) as { included: Json[] }).included);
    const selfie = included.find((object) => object.type === 'verification/selfie') as {
      attributes: { status: string; checks: { name: string; status: string; reasons: string[] }[] };
    };
    expect(selfie.attributes.status).toBe('failed');
    expect(selfie.attributes.checks.find((check) => check.status === 'failed')).toMatchObject({
      name: 'selfie_id_comparison',
      reasons: [expect.any(String)],
    });
    // What the webhook reads of it: the failed check's name, for the review queue's card.
    const reading = receivedFromWebhook(review);
    expect(reading).toMatchObject({
      kind: 'event',
      event: { flaggedChecks: [{ type: 'selfie', name: 'selfie_id_comparison' }] },
    });
  });

  it('signs each event verifiably and sends started, completed, approved in order', async () => {
    // The receiver answers slowly, so events sent concurrently would overlap.
    const { persona, receiver } = await setup(() => 200, {}, 40);
    const approvedOnly = await startReceiver();
    cleanups.push(() => approvedOnly.close());
    const hook = await post(persona, '/api/v1/webhooks', {
      data: { attributes: { url: approvedOnly.url, 'enabled-events': ['inquiry.approved'] } },
    });
    const { id, token } = await createInquiry(persona, 'auth0|webhook-user');
    // What the widget page does when the tester picks "Approve".
    await post(persona, `/widget/api/inquiries/${id}/start`, { sessionToken: token }, false);
    await post(
      persona,
      `/widget/api/inquiries/${id}/outcome`,
      { sessionToken: token, outcome: 'approve' },
      false,
    );
    await waitFor(() => receiver.received.length >= 4, 5000, 'four events');
    await waitFor(() => approvedOnly.received.length >= 1, 5000, 'the approved event');

    for (const request of receiver.received) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(verify(request, secret)).toBe(true);
      expect(verify(request, 'wbhsec_wrong')).toBe(false);
    }
    const events = receiver.received.map(parse);
    expect(events.map((e) => e.data.attributes.name)).toEqual([
      'inquiry.created',
      'inquiry.started',
      'inquiry.completed',
      'inquiry.approved',
    ]);
    // Each event was sent only after the previous one's attempt had been answered.
    for (let i = 1; i < receiver.received.length; i++) {
      expect(receiver.received[i]?.at).toBeGreaterThanOrEqual(
        receiver.received[i - 1]?.answeredAt ?? Infinity,
      );
    }
    const times = events.map((e) => Date.parse(e.data.attributes['created-at']));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1] ?? Infinity);
    for (const event of events) {
      expect(event.data.type).toBe('event');
      expect(event.data.id).toMatch(/^evt_/);
      expect(event.data.attributes['created-at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(event.data.attributes.payload.data.id).toBe(id);
      expect(event.data.attributes.payload.data.type).toBe('inquiry');
      expect(event.data.attributes.payload.data.attributes['reference-id']).toBe('auth0|webhook-user');
    }
    // As Persona's: `included` holds the inquiry's verifications once it has run them.
    const included = events.map((e) =>
      (e.data.attributes.payload.included as { type: string }[]).map((object) => object.type),
    );
    expect(included).toEqual([
      [],
      [],
      ['verification/government-id', 'verification/selfie'],
      ['verification/government-id', 'verification/selfie'],
    ]);
    expect(events.map((e) => e.data.attributes.payload.data.attributes.status)).toEqual([
      'created',
      'pending',
      'completed',
      'approved',
    ]);
    // A subscriber added through the API gets only its events, signed with its own secret.
    expect(approvedOnly.received).toHaveLength(1);
    const only = approvedOnly.received[0] as ReceivedRequest;
    expect(parse(only).data.attributes.name).toBe('inquiry.approved');
    expect(verify(only, hook.data.attributes.secret)).toBe(true);
    expect(verify(only, secret)).toBe(false);
    const api = await fetch(`${persona.url}/api/v1/inquiries/${id}`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(((await api.json()) as Json).data.attributes.status).toBe('approved');
  });

  it('sends declined, marked-for-review and failed for the other outcomes', async () => {
    const { persona, receiver } = await setup(() => 200);
    const expected: Record<string, [string[], string]> = {
      decline: [['inquiry.completed', 'inquiry.declined'], 'declined'],
      review: [['inquiry.completed', 'inquiry.marked-for-review'], 'needs_review'],
      fail: [['inquiry.failed'], 'failed'],
    };
    for (const [outcome, [names, status]] of Object.entries(expected)) {
      const { id, token } = await createInquiry(persona, `auth0|${outcome}`);
      await post(persona, `/widget/api/inquiries/${id}/outcome`, { sessionToken: token, outcome }, false);
      const forInquiry = () =>
        receiver.received.map(parse).filter((e) => e.data.attributes.payload.data.id === id);
      await waitFor(() => forInquiry().length === names.length + 2, 5000, `${outcome} events`);
      const events = forInquiry();
      expect(events.map((e) => e.data.attributes.name)).toEqual([
        'inquiry.created',
        'inquiry.started',
        ...names,
      ]);
      expect(events.at(-1).data.attributes.payload.data.attributes.status).toBe(status);
    }
  });

  it('retries a failing receiver with counting attempt headers until it answers 2xx', async () => {
    const { persona, receiver } = await setup((n) => (n <= 2 ? 500 : 200), {
      retryDelaysMs: [20, 20, 20, 20],
    });
    await createInquiry(persona, 'auth0|retry');
    await waitFor(() => receiver.received.length >= 3, 5000, 'three attempts');
    await new Promise((r) => setTimeout(r, 150));
    expect(receiver.received).toHaveLength(3);
    const made = receiver.received.map((r) => r.headers['persona-webhook-attempts-made']);
    const left = receiver.received.map((r) => r.headers['persona-webhook-attempts-left']);
    expect(made).toEqual(['1', '2', '3']);
    expect(left).toEqual(['4', '3', '2']);
    const first = receiver.received.map((r) => r.headers['persona-webhook-first-attempted-at']);
    expect(new Set(first).size).toBe(1);
    expect(Math.abs(Number(first[0]) - Date.now() / 1000)).toBeLessThan(10);
    expect(new Set(receiver.received.map((r) => parse(r).data.id)).size).toBe(1);
    for (const request of receiver.received) expect(verify(request, secret)).toBe(true);
    expect(persona.deliveries().map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
  });

  it('makes 8 attempts in all (7 retries) against a receiver that never answers 2xx, then stops', async () => {
    const { persona, receiver } = await setup(() => 503, { retryDelaysMs: [5, 5, 5, 5, 5, 5, 5] });
    await createInquiry(persona, 'auth0|never');
    await waitFor(() => receiver.received.length >= 8, 5000, 'eight attempts');
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(8);
    expect(receiver.received.map((r) => r.headers['persona-webhook-attempts-made'])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
    ]);
    expect(receiver.received.at(-1)?.headers['persona-webhook-attempts-left']).toBe('0');
    expect(persona.deliveries()).toHaveLength(8);
    expect(persona.deliveries().every((d) => !d.ok && d.status === 503)).toBe(true);
  });

  it('counts an answer slower than the timeout as a failed attempt and retries', async () => {
    const { persona, receiver } = await setup(() => 200, { retryDelaysMs: [5], deliveryTimeoutMs: 100 }, 250);
    await createInquiry(persona, 'auth0|slow');
    await waitFor(() => persona.deliveries().length >= 2, 5000, 'two attempts');
    expect(receiver.received).toHaveLength(2);
    expect(persona.deliveries().map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [1, null, false],
      [2, null, false],
    ]);
    expect(persona.deliveries()[0]?.error).toMatch(/timeout/i);
  });

  it('cancels pending retries on close', async () => {
    const { persona, receiver } = await setup(() => 500, { retryDelaysMs: [300, 300] });
    await createInquiry(persona, 'auth0|closing');
    await waitFor(() => receiver.received.length >= 1, 5000, 'first attempt');
    await persona.close();
    await new Promise((r) => setTimeout(r, 450));
    expect(receiver.received).toHaveLength(1);
  });
});

describe('Persona emulator webhook fault knob (ADR 0035)', { timeout: 15_000 }, () => {
  const knob = (persona: RunningPersona, body: unknown) =>
    fetch(`${persona.url}/__local/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.status);

  async function approve(persona: RunningPersona) {
    const { id, token } = await createInquiry(persona, 'auth0|knob-user');
    await post(persona, `/widget/api/inquiries/${id}/start`, { sessionToken: token }, false);
    await post(
      persona,
      `/widget/api/inquiries/${id}/outcome`,
      { sessionToken: token, outcome: 'approve' },
      false,
    );
  }
  const names = (receiver: Receiver) =>
    receiver.received.map((request) => parse(request).data.attributes.name);
  const ids = (receiver: Receiver) => receiver.received.map((request) => parse(request).data.id);

  it('duplicates and redelivers every event when asked, with whole-second created-at', async () => {
    const { persona, receiver } = await setup(() => 200);
    expect(
      await knob(persona, {
        seed: 5,
        personaWebhooks: { duplicateRate: 1, redeliverRate: 1, redeliverAfterMs: 10, sameSecond: true },
      }),
    ).toBe(200);
    await approve(persona);
    // Four events, each sent twice at once, and each of those acknowledged copies sent once more.
    await waitFor(() => receiver.received.length >= 16, 5000, 'sixteen deliveries');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const counts = new Map<string, number>();
    for (const id of ids(receiver)) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.values()]).toEqual([4, 4, 4, 4]);
    for (const request of receiver.received)
      expect(parse(request).data.attributes['created-at']).toMatch(/\.000Z$/);
  });

  it("reorders an inquiry's events when asked, and is off again after DELETE", async () => {
    const { persona, receiver } = await setup(() => 200);
    let reordered = false;
    for (let round = 0; round < 10 && !reordered; round++) {
      receiver.received.length = 0;
      expect(await knob(persona, { seed: round, personaWebhooks: { reorderWindowMs: 200 } })).toBe(200);
      await approve(persona);
      await waitFor(() => receiver.received.length >= 4, 5000, 'four events');
      reordered =
        names(receiver).join() !== 'inquiry.created,inquiry.started,inquiry.completed,inquiry.approved';
    }
    expect(reordered).toBe(true);
    expect((await fetch(`${persona.url}/__local/faults`, { method: 'DELETE' })).status).toBe(200);
    receiver.received.length = 0;
    await approve(persona);
    await waitFor(() => receiver.received.length >= 4, 5000, 'four events');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(names(receiver)).toEqual([
      'inquiry.created',
      'inquiry.started',
      'inquiry.completed',
      'inquiry.approved',
    ]);
  });
});
