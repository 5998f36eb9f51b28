import { createHmac, randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { problemContentType, problemTypes } from '#contracts/problem.ts';
import { listAllVerifications } from '#tests/helpers/admin-queue.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { identityVerificationConsent, webApi } from '#tests/helpers/persona-webhooks.ts';
import { createTestUser, passwordToken, type TestUser } from '#tests/helpers/tokens.ts';

// Identity verification through every layer: API gateway -> handlers -> DynamoDB Local, the
// Persona emulator's API and widget, its signed webhooks back to the gateway, and the bus. The
// webhook only queues a PersonaEventReceived; process-persona-event applies it asynchronously, so
// tests wait for the bus to settle before reading the table.

const stack = inject('stack');
const db = stackDb(stack);
const kycTable = db.tableName('KycState');
const { kycState: state, kycHistory: history, kycOutbox: outbox } = db;

const api = webApi(stack);

const persona = (path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${stack.persona.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${stack.persona.apiKey}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

/** Records identity-verification consent through POST /api/consents. */
async function recordConsent(user: TestUser): Promise<void> {
  const response = await api('/api/consents', {
    method: 'POST',
    token: user.token,
    body: identityVerificationConsent,
  });
  expect(response.status).toBe(201);
}

async function startInquiry(user: TestUser) {
  const response = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
  expect(response.status).toBe(200);
  return (await response.json()) as { inquiryId: string; sessionToken?: string };
}

const sign = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

function inquiryEvent(input: { name: string; inquiryId: string; referenceId: string; createdAt?: string }) {
  return JSON.stringify({
    data: {
      type: 'event',
      id: `evt_${randomBytes(12).toString('hex')}`,
      attributes: {
        name: input.name,
        'created-at': input.createdAt ?? new Date().toISOString(),
        'redacted-at': null,
        payload: {
          data: {
            type: 'inquiry',
            id: input.inquiryId,
            attributes: { status: 'completed', 'reference-id': input.referenceId, 'name-first': null },
          },
          included: [],
        },
      },
    },
  });
}

/** Waits until every event on the local bus has been delivered (or dead-lettered). */
async function settle(): Promise<void> {
  const response = await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });
  expect(response.status).toBe(200);
}

/** Dead letters of the processor carrying this Persona event id. */
async function deadLettersOf(eventId: string) {
  const response = await fetch(`${stack.api}/__local/dead-letters`);
  const letters = (await response.json()) as { ruleId: string; event: { detail: { eventId?: string } } }[];
  return letters.filter((letter) => letter.event.detail.eventId === eventId);
}

const deliver = (body: string, signature: string) =>
  api('/api/webhooks/persona', {
    method: 'POST',
    body,
    headers: { 'persona-signature': signature, 'persona-webhook-attempts-made': '1' },
  });

describe('POST /api/me/kyc/inquiry', () => {
  it('refuses a user without identity-verification consent and creates no inquiry', async () => {
    const user = await createTestUser(stack);
    const response = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      type: problemTypes.consentRequired,
      status: 403,
      detail: 'Record your identity-verification consent first',
    });
    expect(await state(user.userId)).toBeUndefined();
  });

  it('refuses a request without a token', async () => {
    expect((await api('/api/me/kyc/inquiry', { method: 'POST' })).status).toBe(401);
  });
});

describe('a consenting user verified by Persona', () => {
  let user: TestUser;
  let inquiryId: string;
  let sessionToken: string;

  beforeAll(async () => {
    user = await createTestUser(stack);
    await recordConsent(user);
  });

  it('starts an inquiry whose reference id is the user, at Persona, with status not_started', async () => {
    const started = await startInquiry(user);
    inquiryId = started.inquiryId;
    expect(started.sessionToken).toEqual(expect.any(String));
    const answer = await persona(`/api/v1/inquiries/${inquiryId}`);
    expect(answer.status).toBe(200);
    const inquiry = (await answer.json()) as { data: { attributes: Record<string, unknown> } };
    expect(inquiry.data.attributes['reference-id']).toBe(user.userId);
    expect(await state(user.userId)).toMatchObject({
      status: 'not_started',
      inquiryId,
      queueStatus: 'not_started',
    });
  });

  it('resumes the same inquiry on a second call, with a new session token', async () => {
    const again = await startInquiry(user);
    expect(again.inquiryId).toBe(inquiryId);
    expect(again.sessionToken).toEqual(expect.any(String));
    sessionToken = again.sessionToken as string;
  });

  it('becomes approved when the tester approves in the widget: webhooks, history, published outbox', async () => {
    for (const [action, body] of [
      ['start', { sessionToken }],
      ['outcome', { sessionToken, outcome: 'approve' }],
    ] as const) {
      const response = await fetch(`${stack.persona.url}/widget/api/inquiries/${inquiryId}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
    }
    await expect.poll(async () => (await state(user.userId))?.status, { timeout: 15_000 }).toBe('approved');
    expect(await state(user.userId)).toMatchObject({
      decidedBy: 'persona',
      queueStatus: 'approved',
      inquiryId,
    });
    // Persona acknowledged inquiry.completed before it sent inquiry.approved, so both are on the
    // bus by now. Processed asynchronously, the approval may be applied first; the completed
    // event is then older than the last applied one and changes nothing (no pending step).
    await settle();
    expect(await state(user.userId)).toMatchObject({ status: 'approved' });
    const transitions = (await history(user.userId)).map((item) => `${item.from}->${item.to}`);
    expect([['not_started->pending', 'pending->approved'], ['not_started->approved']]).toContainEqual(
      transitions,
    );
    // One published KycStatusChanged per recorded transition, in order.
    const published = (await outbox(user.userId)).map((item) => [
      item.detail.status,
      typeof item.publishedAt,
    ]);
    expect(published).toEqual(transitions.map((transition) => [transition.split('->')[1], 'string']));
    await settle();
  });

  it('refuses a new inquiry once approved', async () => {
    const response = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
    expect(response.status).toBe(409);
    expect((await response.json()).type).toBe(problemTypes.identityAlreadyVerified);
  });

  it('lets the outbox relay run on its schedule without anything left to publish for this user', async () => {
    const response = await fetch(`${stack.api}/__local/schedules/RelayKycOutbox`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect((await outbox(user.userId)).every((item) => typeof item.publishedAt === 'string')).toBe(true);
  });
});

describe('POST /api/webhooks/persona', () => {
  let user: TestUser;
  let inquiryId: string;

  beforeAll(async () => {
    user = await createTestUser(stack);
    await recordConsent(user);
    inquiryId = (await startInquiry(user)).inquiryId;
  });

  it('answers 401 to an event signed with another secret and writes nothing', async () => {
    const before = await state(user.userId);
    const body = inquiryEvent({ name: 'inquiry.approved', inquiryId, referenceId: user.userId });
    const response = await deliver(body, sign('wbhsec_not_the_configured_secret', body));
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect((await response.json()).type).toBe(problemTypes.invalidSignature);
    await settle();
    expect(await state(user.userId)).toEqual(before);
    const eventId = (JSON.parse(body) as { data: { id: string } }).data.id;
    const marker = await db.client.send(
      new GetCommand({
        TableName: kycTable,
        Key: { pk: `EVENT#${eventId}`, sk: 'EVENT' },
        ConsistentRead: true,
      }),
    );
    expect(marker.Item).toBeUndefined();
  });

  it('answers 400 to a correctly signed body that is not a Persona event, and writes nothing', async () => {
    const before = await state(user.userId);
    const body = JSON.stringify({
      data: { type: 'event', id: 'evt_x', attributes: { name: 'inquiry.approved' } },
    });
    expect((await deliver(body, sign(stack.persona.webhookSecret, body))).status).toBe(400);
    await settle();
    expect(await state(user.userId)).toEqual(before);
  });

  it('acknowledges but ignores an event for an inquiry this backend did not create', async () => {
    const body = inquiryEvent({
      name: 'inquiry.approved',
      inquiryId: 'inq_NotOurs000000000000000',
      referenceId: user.userId,
    });
    const response = await deliver(body, sign(stack.persona.webhookSecret, body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    await settle();
    expect((await state(user.userId))?.status).toBe('not_started');
  });

  it('applies the same signed event, delivered 10 times at once, exactly once', async () => {
    const body = inquiryEvent({ name: 'inquiry.completed', inquiryId, referenceId: user.userId });
    const signature = sign(stack.persona.webhookSecret, body);
    const responses = await Promise.all(Array.from({ length: 10 }, () => deliver(body, signature)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    await settle();
    expect(await state(user.userId)).toMatchObject({ status: 'pending', queueStatus: 'pending' });
    expect(await history(user.userId)).toHaveLength(1);
    expect(await outbox(user.userId)).toHaveLength(1);
    // The nine duplicates were processed (and dropped), not left failing for the dead-letter queue.
    expect(await deadLettersOf((JSON.parse(body) as { data: { id: string } }).data.id)).toEqual([]);
  });

  it('does not let an event older than the last applied one change the status', async () => {
    const body = inquiryEvent({
      name: 'inquiry.declined',
      inquiryId,
      referenceId: user.userId,
      createdAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect((await deliver(body, sign(stack.persona.webhookSecret, body))).status).toBe(200);
    await settle();
    expect((await state(user.userId))?.status).toBe('pending');
  });

  describe('the admin review', () => {
    let adminToken: string;
    beforeAll(async () => {
      const admin = stack.accounts.find((account) => account.role === 'admin');
      if (!admin) throw new Error('stack.json has no admin account');
      adminToken = await passwordToken(stack, admin.email, admin.password);
    });

    it('lists the pending user in the pending queue and under all, not under approved', async () => {
      const ids = (status: 'pending' | 'approved' | 'all') =>
        listAllVerifications((path) => api(path, { token: adminToken }), status);
      expect(await ids('pending')).toContainEqual(
        expect.objectContaining({
          userId: user.userId,
          status: 'pending',
          inquiryId,
          updatedAt: expect.any(String),
          decidedBy: 'persona',
          // Created through the Management API, not registered: no organization on file.
          organizationName: null,
          history: [expect.objectContaining({ previousStatus: 'not_started', status: 'pending' })],
        }),
      );
      expect((await ids('all')).map((item) => item.userId)).toContain(user.userId);
      expect((await ids('approved')).map((item) => item.userId)).not.toContain(user.userId);
    });

    it('answers 400 to an unknown status filter', async () => {
      expect((await api('/api/admin/verifications?status=everything', { token: adminToken })).status).toBe(
        400,
      );
    });

    it('answers 400 problem+json naming a bad cursor, search or order (ADR 0082)', async () => {
      const response = await api('/api/admin/verifications?status=all&cursor=forged&q=x&sort=alphabetical', {
        token: adminToken,
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe(problemContentType);
      const { errors } = (await response.json()) as { errors: { field: string }[] };
      expect(errors.map((error) => error.field).sort()).toEqual(['cursor', 'q', 'sort']);
    });

    it("answers the pending user's inquiry as Persona has it, with its dashboard link (ADR 0082)", async () => {
      const response = await api(`/api/admin/verifications/${encodeURIComponent(user.userId)}/evidence`, {
        token: adminToken,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        userId: user.userId,
        inquiryId,
        dashboardUrl: `https://app.withpersona.com/dashboard/inquiries/${inquiryId}`,
        redacted: false,
      });
    });

    it('answers 400 to a decision with an unknown field, changing nothing', async () => {
      const response = await api(`/api/admin/verifications/${encodeURIComponent(user.userId)}/decision`, {
        method: 'POST',
        token: adminToken,
        body: {
          decision: 'approved',
          reasonCode: 'identity_confirmed',
          reason: 'Looks right',
          decidedBy: 'persona',
        },
      });
      expect(response.status).toBe(400);
      expect((await response.json()).errors).toContainEqual({
        field: 'decidedBy',
        message: 'This field is not allowed.',
      });
      expect((await state(user.userId))?.status).toBe('pending');
    });

    it('answers 404 to a decision about a user without a verification', async () => {
      const response = await api('/api/admin/verifications/auth0%7Cnobody/decision', {
        method: 'POST',
        token: adminToken,
        body: { decision: 'approved', reasonCode: 'identity_confirmed', reason: 'Looks right' },
      });
      expect(response.status).toBe(404);
      expect((await response.json()).type).toBe(problemTypes.verificationNotFound);
    });

    it('records a rejection with the admin and the reason, and publishes it', async () => {
      const response = await api(`/api/admin/verifications/${encodeURIComponent(user.userId)}/decision`, {
        method: 'POST',
        token: adminToken,
        body: { decision: 'rejected', reasonCode: 'document_expired', reason: 'The ID document is expired' },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        userId: user.userId,
        kycStatus: 'rejected',
        reasonCode: 'document_expired',
        outcome: 'decided',
      });
      expect(await state(user.userId)).toMatchObject({
        status: 'rejected',
        decidedBy: 'admin',
        queueStatus: 'rejected',
      });
      const last = (await history(user.userId)).at(-1);
      expect(last).toMatchObject({
        from: 'pending',
        to: 'rejected',
        by: 'admin',
        reason: 'The ID document is expired',
        reasonCode: 'document_expired',
      });
      expect(last?.actorId).toEqual(expect.stringMatching(/.+/));
      expect(last?.actorId).not.toBe(user.userId);
      await expect
        .poll(async () => (await outbox(user.userId)).filter((item) => item.publishedAt).length)
        .toBe(2);
    });

    it('refuses a user token on the admin routes with 403 admin-required', async () => {
      const list = await api('/api/admin/verifications?status=pending', { token: user.token });
      expect(list.status).toBe(403);
      expect((await list.json()).type).toBe(problemTypes.adminRequired);
      const decision = await api(`/api/admin/verifications/${encodeURIComponent(user.userId)}/decision`, {
        method: 'POST',
        token: user.token,
        body: { decision: 'approved', reasonCode: 'identity_confirmed', reason: 'I approve myself' },
      });
      expect(decision.status).toBe(403);
      expect((await decision.json()).type).toBe(problemTypes.adminRequired);
      expect((await state(user.userId))?.status).toBe('rejected');
    });
  });
});
