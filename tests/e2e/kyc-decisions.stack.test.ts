import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { problemContentType, problemTypes } from '#contracts/problem.ts';
import { listAllVerifications } from '#tests/helpers/admin-queue.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import {
  type EnrolledUser,
  enrolledUser,
  personaEvent,
  sendWebhook,
  settleEvents,
  webApi,
} from '#tests/helpers/persona-webhooks.ts';
import { mailbox, passwordToken } from '#tests/helpers/tokens.ts';

// Issue 21, items 2 and 3, through the gateway, the handlers, DynamoDB Local, the Persona emulator
// and the bus: a decision needs a submitted inquiry and never concerns the deciding admin; a
// decision carries a reason code whose message the person reads (status and email) while the
// admin's note stays internal; a reviewer may allow a new attempt, which the person starts, up to
// three attempts, each inquiry recorded against the person.

const stack = inject('stack');
const api = webApi(stack);
const db = stackDb(stack);

let adminToken: string;
let adminId: string;
beforeAll(async () => {
  const admin = stack.accounts.find((account) => account.role === 'admin');
  if (!admin) throw new Error('stack.json has no admin account');
  adminToken = await passwordToken(stack, admin.email, admin.password);
  adminId = String(decodeJwt(adminToken).sub);
});

const settle = () => settleEvents(stack);

/** Persona reports the user's current inquiry submitted (inquiry.completed): the status is pending. */
async function submit(user: { userId: string; inquiryId: string }) {
  expect((await sendWebhook(stack, personaEvent('inquiry.completed', user, new Date()))).status).toBe(200);
  await settle();
  expect((await db.kycState(user.userId))?.status).toBe('pending');
}

const decide = (userId: string, body: unknown, token = adminToken) =>
  api(`/api/admin/verifications/${encodeURIComponent(userId)}/decision`, { method: 'POST', token, body });
const allowNewAttempt = (userId: string, body: unknown, token = adminToken) =>
  api(`/api/admin/verifications/${encodeURIComponent(userId)}/new-attempt`, { method: 'POST', token, body });

async function me(user: { token: string }) {
  const response = await api('/api/me', { token: user.token });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function expectProblem(response: Response, status: number, type: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe(problemContentType);
  expect(await response.json()).toMatchObject({ type, status });
}

/** The inquiries recorded against the person (`USER#<sub>` / `INQUIRY#<id>`). */
async function recordedInquiries(userId: string) {
  const { Items = [] } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName('KycState'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :inquiry)',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':inquiry': 'INQUIRY#' },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => ({ inquiryId: item.inquiryId, attempt: item.attempt }));
}

describe('an approval needs a submitted inquiry', () => {
  it('answers 409 verification-not-submitted to approving an inquiry opened and cancelled, and writes nothing', async () => {
    // Consent given and the widget opened (an inquiry exists at Persona), then cancelled.
    const user = await enrolledUser(stack);
    const before = await db.kycState(user.userId);
    expect(before).toMatchObject({ status: 'not_started', inquiryId: user.inquiryId });

    const approve = await decide(user.userId, { decision: 'approved', reasonCode: 'identity_confirmed' });
    await expectProblem(approve, 409, problemTypes.verificationNotSubmitted);
    const reject = await decide(user.userId, { decision: 'rejected', reasonCode: 'document_unreadable' });
    await expectProblem(reject, 409, problemTypes.verificationNotSubmitted);

    expect(await db.kycState(user.userId)).toEqual(before);
    expect(await db.kycHistory(user.userId)).toEqual([]);
    // The queue says so, so the screen offers no Approve.
    const items = await listAllVerifications((path) => api(path, { token: adminToken }), 'all');
    expect(items.find((item) => item.userId === user.userId)).toMatchObject({ submitted: false });
    expect((await me(user)).kycStatus).toBe('not_started');
  });
});

describe('an admin never decides on themselves', () => {
  it('answers 403 own-verification to a decision and to a new attempt about the admin', async () => {
    await expectProblem(
      await decide(adminId, { decision: 'approved', reasonCode: 'identity_confirmed' }),
      403,
      problemTypes.ownVerification,
    );
    await expectProblem(
      await allowNewAttempt(adminId, { reason: 'Let me try again' }),
      403,
      problemTypes.ownVerification,
    );
    expect(await db.kycHistory(adminId)).toEqual([]);
  });
});

describe('a rejected person learns why and may verify again when a reviewer allows it', () => {
  let user: EnrolledUser;
  const note = 'Internal: glare over the date of birth, checked twice';

  beforeAll(async () => {
    user = await enrolledUser(stack);
    await submit(user);
  });

  it('refuses a reason code that is not on the list or does not fit the decision, writing nothing', async () => {
    for (const body of [
      { decision: 'rejected', reason: 'No code' },
      { decision: 'rejected', reasonCode: 'looked_odd' },
      { decision: 'rejected', reasonCode: 'identity_confirmed' },
      { decision: 'rejected', reasonCode: 'checks_declined' },
    ]) {
      const response = await decide(user.userId, body);
      expect(response.status).toBe(400);
      expect((await response.json()).errors).toContainEqual(expect.objectContaining({ field: 'reasonCode' }));
    }
    expect((await db.kycState(user.userId))?.status).toBe('pending');
  });

  it('shows the reason code message on /api/me and in the email, never the admin note', async () => {
    const response = await decide(user.userId, {
      decision: 'rejected',
      reasonCode: 'document_unreadable',
      reason: note,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      userId: user.userId,
      kycStatus: 'rejected',
      reasonCode: 'document_unreadable',
      outcome: 'decided',
    });
    await settle();

    const mine = await me(user);
    expect(mine).toMatchObject({
      kycStatus: 'rejected',
      kycReason: { code: 'document_unreadable', message: 'The photo of the document was unreadable.' },
      kycNewAttemptAllowed: false,
      kycAttempts: { used: 1, max: 3 },
    });
    expect(JSON.stringify(mine)).not.toContain('glare');

    await expect
      .poll(async () =>
        (await mailbox(stack)).find(
          (mail) =>
            mail.destination.to.includes(user.email) &&
            mail.subject === 'Your identity verification was not approved',
        ),
      )
      .toBeDefined();
    const email = (await mailbox(stack)).find(
      (mail) =>
        mail.destination.to.includes(user.email) &&
        mail.subject === 'Your identity verification was not approved',
    );
    const text = email?.body.text ?? '';
    expect(text).toContain('The photo of the document was unreadable.');
    expect(text).not.toContain('glare');
    expect(text).not.toContain('do not reply');

    // The history keeps both the code and the note for the reviewers.
    expect((await db.kycHistory(user.userId)).at(-1)).toMatchObject({
      to: 'rejected',
      reasonCode: 'document_unreadable',
      reason: note,
    });
  });

  it('refuses a new inquiry until a reviewer allows one', async () => {
    const response = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
    await expectProblem(response, 409, problemTypes.verificationClosed);
    expect(await recordedInquiries(user.userId)).toEqual([{ inquiryId: user.inquiryId, attempt: 1 }]);
  });

  it('lets a reviewer allow a new attempt with a reason, which the person starts with a new inquiry', async () => {
    expect((await allowNewAttempt(user.userId, {})).status).toBe(400);
    const allowed = await allowNewAttempt(user.userId, { reason: 'A readable scan arrived by post' });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({
      userId: user.userId,
      kycStatus: 'rejected',
      newAttemptAllowed: true,
      attempt: 1,
      maxAttempts: 3,
    });
    expect(await me(user)).toMatchObject({ kycStatus: 'rejected', kycNewAttemptAllowed: true });

    const started = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
    expect(started.status).toBe(200);
    const { inquiryId, sessionToken } = (await started.json()) as {
      inquiryId: string;
      sessionToken?: string;
    };
    expect(inquiryId).not.toBe(user.inquiryId);
    expect(sessionToken).toEqual(expect.any(String));
    expect(await db.kycState(user.userId)).toMatchObject({
      status: 'not_started',
      queueStatus: 'not_started',
      inquiryId,
      attempt: 2,
    });
    expect(await me(user)).toMatchObject({
      kycStatus: 'not_started',
      kycReason: null,
      kycNewAttemptAllowed: false,
      kycAttempts: { used: 2, max: 3 },
    });
    expect(await recordedInquiries(user.userId)).toEqual(
      expect.arrayContaining([
        { inquiryId: user.inquiryId, attempt: 1 },
        { inquiryId, attempt: 2 },
      ]),
    );
    expect(await recordedInquiries(user.userId)).toHaveLength(2);
    // The new attempt is not submitted yet: nothing to approve.
    await expectProblem(
      await decide(user.userId, { decision: 'approved', reasonCode: 'identity_confirmed' }),
      409,
      problemTypes.verificationNotSubmitted,
    );
    // A late event about the old inquiry decides nothing any more.
    expect((await sendWebhook(stack, personaEvent('inquiry.approved', user, new Date()))).status).toBe(200);
    await settle();
    expect((await db.kycState(user.userId))?.status).toBe('not_started');
    user = { ...user, inquiryId, sessionToken: sessionToken ?? '' };
  });

  it('allows at most three attempts per person', async () => {
    await submit(user);
    expect((await decide(user.userId, { decision: 'rejected', reasonCode: 'selfie_mismatch' })).status).toBe(
      200,
    );
    expect((await allowNewAttempt(user.userId, { reason: 'Third and last try' })).status).toBe(200);
    const third = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
    expect(third.status).toBe(200);
    user = { ...user, inquiryId: ((await third.json()) as { inquiryId: string }).inquiryId };
    await submit(user);
    expect((await decide(user.userId, { decision: 'rejected', reasonCode: 'details_mismatch' })).status).toBe(
      200,
    );

    await expectProblem(
      await allowNewAttempt(user.userId, { reason: 'One more?' }),
      409,
      problemTypes.attemptsExhausted,
    );
    expect(await me(user)).toMatchObject({
      kycStatus: 'rejected',
      kycNewAttemptAllowed: false,
      kycAttempts: { used: 3, max: 3 },
    });
    expect((await recordedInquiries(user.userId)).map((entry) => entry.attempt).sort()).toEqual([1, 2, 3]);
  });
});

describe("Persona's own decisions", () => {
  it('carry a reason code whose message the person reads', async () => {
    const user = await enrolledUser(stack);
    await submit(user);
    expect((await sendWebhook(stack, personaEvent('inquiry.declined', user, new Date()))).status).toBe(200);
    await settle();
    expect(await me(user)).toMatchObject({
      kycStatus: 'rejected',
      kycReason: { code: 'checks_declined' },
      kycNewAttemptAllowed: false,
    });
  });
});
