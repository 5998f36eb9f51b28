import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { kycChannelPath } from '#contracts/kyc-channel.ts';
import {
  enrolledUser,
  personaEvent,
  sendWebhook,
  settleEvents,
  webApi,
} from '#tests/helpers/persona-webhooks.ts';
import { type Subscriber, subscribe } from '#tests/helpers/realtime.ts';
import { passwordToken } from '#tests/helpers/tokens.ts';

// Issue 22, item 4, through the whole local stack: a decision, by a reviewer or by Persona's
// webhook, reaches the person's subscriber on the realtime API (the AppSync Events emulator), by
// way of the bus and push-kyc-decision's signed publish; nobody else can listen in.

const stack = inject('stack');
const api = webApi(stack);
const open: Subscriber[] = [];
afterEach(() => {
  for (const subscriber of open.splice(0)) subscriber.close();
});

let adminToken: string;
beforeAll(async () => {
  const admin = stack.accounts.find((account) => account.role === 'admin');
  if (!admin) throw new Error('stack.json has no admin account');
  adminToken = await passwordToken(stack, admin.email, admin.password);
});

async function listen(token: string, userId: string) {
  const subscriber = await subscribe(stack, token, kycChannelPath(userId) ?? '');
  open.push(subscriber);
  return subscriber;
}

async function submitted() {
  const user = await enrolledUser(stack);
  expect((await sendWebhook(stack, personaEvent('inquiry.completed', user, new Date()))).status).toBe(200);
  await settleEvents(stack);
  return user;
}

describe('a decision pushed to the person', () => {
  it("arrives on the person's channel when a reviewer decides", async () => {
    const user = await submitted();
    const subscriber = await listen(user.token, user.userId);
    expect(subscriber.answer).toEqual({ type: 'subscribe_success', id: 'sub' });

    const decision = await api(`/api/admin/verifications/${encodeURIComponent(user.userId)}/decision`, {
      method: 'POST',
      token: adminToken,
      body: { decision: 'rejected', reasonCode: 'document_unreadable' },
    });
    expect(decision.status).toBe(200);
    await settleEvents(stack);
    expect(subscriber.events()).toEqual([{ status: 'rejected', occurredAt: expect.any(String) }]);
  });

  it("arrives on the person's channel when Persona's webhook approves, and the screen's GET /api/me agrees", async () => {
    const user = await submitted();
    const subscriber = await listen(user.token, user.userId);
    expect((await sendWebhook(stack, personaEvent('inquiry.approved', user, new Date()))).status).toBe(200);
    await settleEvents(stack);
    expect(subscriber.events()).toEqual([{ status: 'approved', occurredAt: expect.any(String) }]);
    const me = await api('/api/me', { token: user.token });
    expect(((await me.json()) as { kycStatus: string }).kycStatus).toBe('approved');
  });

  it("is never delivered to another user: their subscription to the person's channel is refused", async () => {
    const [victim, attacker] = await Promise.all([submitted(), enrolledUser(stack)]);
    const eavesdropper = await subscribe(stack, attacker.token, kycChannelPath(victim.userId) ?? '');
    open.push(eavesdropper);
    expect(eavesdropper.answer).toMatchObject({
      type: 'subscribe_error',
      errors: [{ errorType: 'UnauthorizedException' }],
    });
    const wildcard = await subscribe(stack, attacker.token, '/kyc-decisions/*');
    open.push(wildcard);
    expect(wildcard.answer).toMatchObject({ type: 'subscribe_error' });
    const own = await listen(attacker.token, attacker.userId);

    expect((await sendWebhook(stack, personaEvent('inquiry.approved', victim, new Date()))).status).toBe(200);
    await settleEvents(stack);
    expect([...eavesdropper.events(), ...wildcard.events(), ...own.events()]).toEqual([]);
  });

  it('refuses a connection with a token that is not an access token of this API', async () => {
    const user = await enrolledUser(stack);
    await expect(subscribe(stack, `${user.token}x`, kycChannelPath(user.userId) ?? '')).rejects.toThrow();
  });
});
