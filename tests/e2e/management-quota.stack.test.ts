import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { kycChannelPath } from '#contracts/kyc-channel.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import {
  identityVerificationConsent,
  personaEvent,
  sendWebhook,
  settleEvents,
  webApi,
} from '#tests/helpers/persona-webhooks.ts';
import { subscribe } from '#tests/helpers/realtime.ts';
import { registeredUser } from '#tests/helpers/registration.ts';
import { createTestUser, mailbox } from '#tests/helpers/tokens.ts';

// Issue 22, "done when": with every Management API call answered 429 (the tenant's quota spent),
// the signed-in product still works: GET /api/me, the status a screen reads, and a decision's
// arrival on an open status screen; a verification email asked for meanwhile is queued, and a
// registration made meanwhile completes once the quota is back (ADR 0059).

const stack = inject('stack');
const api = webApi(stack);
const db = stackDb(stack);
const idpBase = stack.idp.issuer.replace(/\/$/, '');

const control = async (base: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
};

const quotaSpent = () =>
  Promise.all([
    control(idpBase, 'POST', '/__local/faults', {
      managementApi: { rateLimitRate: 1, rateLimitResetSeconds: 0 },
    }),
    // The bus's retries come quickly here (in AWS they spread over hours): the event is retried,
    // then dead-lettered, and nothing is lost.
    control(stack.api, 'POST', '/__local/faults', { eventBridge: { retryDelayMs: 20 } }),
  ]);
const quotaBack = () =>
  Promise.all([
    control(idpBase, 'DELETE', '/__local/faults'),
    control(stack.api, 'DELETE', '/__local/faults'),
  ]);
afterEach(quotaBack);

const redrive = () => control(stack.api, 'POST', '/__local/dead-letters/redrive');

describe("the tenant's Management API quota spent", () => {
  it('leaves GET /api/me, the status and the pushed decision working, and queues what needs Auth0 until it is back', async () => {
    const person = await registeredUser(stack, 'Quota Labs');
    const unverified = await createTestUser(stack, undefined, { emailVerified: false });
    await quotaSpent();

    const me = await api('/api/me', { token: person.token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      userId: person.userId,
      email: person.email,
      name: 'Grace Hopper',
      organizationName: 'Quota Labs',
      kycStatus: 'not_started',
    });

    // The journey on: consent, an inquiry, the open status screen's channel, Persona's decision.
    expect(
      (await api('/api/consents', { method: 'POST', token: person.token, body: identityVerificationConsent }))
        .status,
    ).toBe(201);
    const inquiry = await api('/api/me/kyc/inquiry', { method: 'POST', token: person.token });
    expect(inquiry.status).toBe(200);
    const { inquiryId } = (await inquiry.json()) as { inquiryId: string };
    const subscriber = await subscribe(stack, person.token, kycChannelPath(person.userId) ?? '');
    try {
      expect(subscriber.answer).toEqual({ type: 'subscribe_success', id: 'sub' });
      const user = { userId: person.userId, inquiryId };
      expect((await sendWebhook(stack, personaEvent('inquiry.completed', user, new Date()))).status).toBe(
        200,
      );
      expect((await sendWebhook(stack, personaEvent('inquiry.approved', user, new Date()))).status).toBe(200);
      await settleEvents(stack);
      expect(subscriber.events()).toContainEqual({ status: 'approved', occurredAt: expect.any(String) });
    } finally {
      subscriber.close();
    }
    expect(await (await api('/api/me', { token: person.token })).json()).toMatchObject({
      kycStatus: 'approved',
    });

    // Asking for a verification email is answered at once: the send is queued.
    const resend = await api('/api/me/verification-email', { method: 'POST', token: unverified.token });
    expect(resend.status).toBe(202);

    // A registration made meanwhile is kept; its account work waits for the quota.
    const email = `quota-${randomBytes(6).toString('hex')}@orbit-bio.example`;
    const registration = await api('/api/registrations', {
      method: 'POST',
      body: {
        responsibleName: 'Katherine Johnson',
        responsibleTitle: 'Director',
        responsibleEmail: email,
        responsiblePhone: '+1 555 0101',
        organizationName: 'Meanwhile Inc',
        organizationUrl: 'https://meanwhile.example',
        organizationType: 'commercial',
        termsAgreed: true,
        privacyAgreed: true,
        nonHarmAgreed: true,
      },
    });
    expect(registration.status).toBe(201);
    await settleEvents(stack);
    expect((await mailbox(stack)).some((m) => m.destination.to.includes(email))).toBe(false);

    await quotaBack();
    await redrive();
    await settleEvents(stack);
    // The login instructions and the verification email arrive, and the sync has told Auth0.
    const mails = await mailbox(stack);
    expect(mails.filter((m) => m.destination.to.includes(email))).toHaveLength(1);
    expect(mails.filter((m) => m.destination.to.includes(unverified.email))).toHaveLength(1);
    const synced = await db.client.send(
      new GetCommand({
        TableName: db.tableName('Submissions'),
        Key: { pk: `PROFILE#${person.userId}`, sk: 'PROFILE' },
        ConsistentRead: true,
      }),
    );
    expect(synced.Item).toMatchObject({ auth0KycStatus: 'approved' });
  });
});
