import { beforeAll, describe, expect, inject, it } from 'vitest';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import { enrolledUser, webApi } from '#tests/helpers/persona-webhooks.ts';
import { mailbox, managementToken, type TestUser } from '#tests/helpers/tokens.ts';

// Issue 11, item 7 (ADR 0038): Persona never delivers a single webhook for one inquiry (the
// emulator's webhook-drops knob), the reconciliation job (rule ReconcileKycInquiries, run by hand
// through the gateway with the age set to 0) brings the user to Persona's status through the
// webhook's own path, and running it again, or twice at once, changes nothing.

const stack = inject('stack');
const db = stackDb(stack);
const api = webApi(stack);
const state = db.kycState;

async function transitions(userId: string) {
  return (await db.kycHistory(userId)).map((item) => `${item.from}->${item.to}`);
}

/** The KycStatusChanged events recorded for the user (the outbox: one item per published change). */
async function statusChanges(userId: string) {
  return (await db.kycOutbox(userId)).map((item) => ({
    status: item.detail.status,
    published: typeof item.publishedAt === 'string',
  }));
}

async function settle(): Promise<void> {
  expect((await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' })).status).toBe(200);
}

/** Runs the reconciliation now with the age set to 0, then waits for the bus. */
async function reconcile(): Promise<void> {
  const response = await fetch(`${stack.api}/__local/schedules/ReconcileKycInquiries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ minAgeMinutes: 0 }),
  });
  expect(response.status).toBe(200);
  await settle();
}

async function dropWebhooksOf(inquiryId: string): Promise<void> {
  const response = await fetch(`${stack.persona.url}/__local/persona/webhook-drops`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inquiryId }),
  });
  expect(response.status).toBe(200);
}

async function droppedEventsOf(inquiryId: string): Promise<string[]> {
  const response = await fetch(`${stack.persona.url}/__local/persona/webhook-drops`);
  const view = (await response.json()) as { dropped: { name: string; inquiryId: string }[] };
  return view.dropped.filter((event) => event.inquiryId === inquiryId).map((event) => event.name);
}

/** A consenting user with an inquiry whose webhooks Persona drops, finished with `outcome` in the widget. */
async function userWithLostWebhooks(
  outcome: 'approve' | 'review',
): Promise<{ user: TestUser; inquiryId: string }> {
  const user = await enrolledUser(stack);
  const { inquiryId, sessionToken } = user;
  await dropWebhooksOf(inquiryId);
  for (const [action, body] of [
    ['start', { sessionToken }],
    ['outcome', { sessionToken, outcome }],
  ] as const) {
    const response = await fetch(`${stack.persona.url}/widget/api/inquiries/${inquiryId}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  }
  return { user, inquiryId };
}

async function seenStatus(user: TestUser) {
  const me = (await (await api('/api/me', { token: user.token })).json()) as { kycStatus: string };
  const idp = await managementFetch(`${stack.idp.issuer}api/v2/users/${encodeURIComponent(user.userId)}`, {
    headers: { authorization: `Bearer ${await managementToken(stack)}` },
  });
  const { app_metadata } = (await idp.json()) as { app_metadata: { kyc_status?: string } };
  return { table: (await state(user.userId))?.status, me: me.kycStatus, auth0: app_metadata.kyc_status };
}

const mailsTo = async (address: string) =>
  (await mailbox(stack)).filter((mail) => mail.destination.to.includes(address));

describe('an approval whose every webhook Persona dropped', () => {
  let user: TestUser;
  let inquiryId: string;

  beforeAll(async () => {
    ({ user, inquiryId } = await userWithLostWebhooks('approve'));
    await settle();
  });

  it('leaves the user not_started while no webhook arrives', async () => {
    expect(await droppedEventsOf(inquiryId)).toEqual(
      expect.arrayContaining(['inquiry.started', 'inquiry.completed', 'inquiry.approved']),
    );
    expect(await seenStatus(user)).toEqual({ table: 'not_started', me: 'not_started', auth0: 'not_started' });
  });

  it('is approved by the reconciliation, two runs at once: table, GET /api/me, Auth0, one status change, one email', async () => {
    // Both runs find the user undecided and publish the same event: it is applied once.
    await Promise.all([reconcile(), reconcile()]);
    expect(await seenStatus(user)).toEqual({ table: 'approved', me: 'approved', auth0: 'approved' });
    expect(await state(user.userId)).toMatchObject({ decidedBy: 'persona', inquiryId });
    expect(await transitions(user.userId)).toEqual(['not_started->approved']);
    expect(await statusChanges(user.userId)).toEqual([{ status: 'approved', published: true }]);
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/approved|verified/i);
  });

  it('changes nothing when run again', async () => {
    const before = await state(user.userId);
    await reconcile();
    await reconcile();
    expect(await state(user.userId)).toEqual(before);
    expect(await transitions(user.userId)).toEqual(['not_started->approved']);
    expect(await statusChanges(user.userId)).toEqual([{ status: 'approved', published: true }]);
    expect(await mailsTo(user.email)).toHaveLength(1);
    expect(await seenStatus(user)).toEqual({ table: 'approved', me: 'approved', auth0: 'approved' });
  });
});

describe('an inquiry awaiting review whose webhooks Persona dropped', () => {
  it('becomes pending once and stays pending on later runs (no flapping, no email)', async () => {
    const { user } = await userWithLostWebhooks('review');
    await settle();
    expect((await state(user.userId))?.status).toBe('not_started');
    await reconcile();
    const pending = await state(user.userId);
    expect(pending?.status).toBe('pending');
    await reconcile();
    await reconcile();
    expect(await state(user.userId)).toEqual(pending);
    expect(await transitions(user.userId)).toEqual(['not_started->pending']);
    expect(await statusChanges(user.userId)).toEqual([{ status: 'pending', published: true }]);
    expect(await mailsTo(user.email)).toHaveLength(0);
    expect(await seenStatus(user)).toEqual({ table: 'pending', me: 'pending', auth0: 'pending' });
  });
});
