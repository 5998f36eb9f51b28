import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { postToken } from '#tests/helpers/idp.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import { enrolledUser, webApi } from '#tests/helpers/persona-webhooks.ts';
import { createTestUser, mailbox, managementToken } from '#tests/helpers/tokens.ts';

// Issue 11, item 3 (ADR 0039): DynamoDB Local stopped in the middle of registrations and identity
// verifications, and the identity provider restarted in the middle of a signed-in session. What a
// person sees: a 503 with Retry-After instead of a hang or a half-done registration; after the
// restart every verification ends in its status exactly once (one transition, one published
// KycStatusChanged, one decision email), and nobody is signed out by the provider's restart.

const stack = inject('stack');
const db = stackDb(stack);
const kycTable = db.tableName('KycState');
const users = Number(process.env.SOAK ? 12 : 4);

const control = async (name: string) => {
  const response = await fetch(`${stack.api}/__local/${name}`, { method: 'POST' });
  expect(response.status).toBe(200);
};
const settle = () => control('events/settle');

const api = webApi(stack);

const registration = (email: string) => ({
  responsibleName: 'Grace Hopper',
  responsibleTitle: 'Rear Admiral',
  responsibleEmail: email,
  responsiblePhone: '+49 30 1234567',
  organizationName: 'Outage Labs',
  organizationUrl: 'https://outage-labs.example',
  organizationType: 'academic',
  termsAgreed: true,
  privacyAgreed: true,
  nonHarmAgreed: true,
});

/** The tester's clicks in the Persona widget: Persona then sends its signed webhooks. */
async function decide(user: { inquiryId: string; sessionToken: string }, outcome: 'approve' | 'decline') {
  for (const [action, body] of [
    ['start', { sessionToken: user.sessionToken }],
    ['outcome', { sessionToken: user.sessionToken, outcome }],
  ] as const) {
    const response = await fetch(`${stack.persona.url}/widget/api/inquiries/${user.inquiryId}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  }
}

async function kycItems(userId: string) {
  const read = async (pk: string) =>
    (
      await db.client.send(
        new QueryCommand({
          TableName: kycTable,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [];
  const own = await read(`USER#${userId}`);
  return {
    status: own.find((item) => item.sk === 'STATE')?.status,
    transitions: own
      .filter((item) => String(item.sk).startsWith('HISTORY#'))
      .map((item) => `${item.from}->${item.to}`),
    published: (await read('OUTBOX'))
      .filter((item) => item.detail?.userId === userId)
      .map((item) => `${item.detail.status}:${typeof item.publishedAt}`),
  };
}

async function accountsFor(email: string) {
  const response = await managementFetch(
    `${stack.idp.issuer}api/v2/users-by-email?email=${encodeURIComponent(email)}`,
    {
      headers: { authorization: `Bearer ${await managementToken(stack)}` },
    },
  );
  return (await response.json()) as unknown[];
}

afterEach(async () => {
  // Whatever happened in the test, the next suite finds DynamoDB answering.
  await control('dynamodb/start');
});

describe('DynamoDB stopped mid-run', () => {
  it('answers registration 503 + Retry-After, then loses and duplicates no verification once it is back', async () => {
    const started = Date.now();
    const people = await Promise.all(Array.from({ length: users }, () => enrolledUser(stack)));
    const expected = people.map((_, i) => (i % 2 ? 'approved' : 'rejected'));
    const mailsBefore = await mailbox(stack);
    const email = `outage-${randomBytes(6).toString('hex')}@outage-labs.example`;

    await control('dynamodb/stop');
    const outageStarted = Date.now();
    // Persona sends its webhooks while the table is down; a person sends the registration form.
    const [refused] = await Promise.all([
      api('/api/registrations', { method: 'POST', body: registration(email) }),
      ...people.map((person, i) => decide(person, i % 2 ? 'approve' : 'decline')),
    ]);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ type: problemTypes.serviceUnavailable, status: 503 });
    // The outage outlasts the client's bounded retries (about 8 s) of the deliveries that started
    // in it, so they fail and the bus's retries, not a slow answer, carry them past the restart.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const outageMs = Date.now() - outageStarted;
    await control('dynamodb/start');

    // What the person does after Retry-After: sends the form again.
    const accepted = await api('/api/registrations', { method: 'POST', body: registration(email) });
    expect(accepted.status).toBe(201);
    await settle();

    // One account and one login email for the address, whatever the refused attempt left behind.
    expect(await accountsFor(email)).toHaveLength(1);
    const mails = (await mailbox(stack)).filter(
      (mail) => !mailsBefore.some((m) => m.messageId === mail.messageId),
    );
    expect(mails.filter((mail) => mail.destination.to.includes(email))).toHaveLength(1);

    const seen = await Promise.all(people.map((person) => kycItems(person.userId)));
    expect(seen.map((s) => s.status)).toEqual(expected);
    for (const [i, s] of seen.entries()) {
      // The status reached exactly once, published exactly once per transition.
      expect(s.transitions.filter((t) => t.endsWith(`->${expected[i]}`))).toHaveLength(1);
      expect(s.published).toEqual(s.transitions.map((t) => `${t.split('->')[1]}:string`));
    }
    const decisionMails = people.map(
      (person) => mails.filter((mail) => mail.destination.to.includes(person.email)).length,
    );
    expect(decisionMails).toEqual(people.map(() => 1));
    const dead = (await (await fetch(`${stack.api}/__local/dead-letters`)).json()) as {
      event: { detail: Record<string, unknown> };
    }[];
    const ours = new Set(people.flatMap((p) => [p.userId, p.inquiryId]));
    expect(
      dead.filter((letter) => Object.values(letter.event.detail).some((v) => ours.has(String(v)))),
    ).toEqual([]);
    console.info(
      `[outage] ${users} verifications + 2 registrations, DynamoDB down ${outageMs} ms, whole test ${Date.now() - started} ms`,
    );
  });
});

describe('the identity provider restarted mid-journey', () => {
  it('keeps the user, the refresh token and what the token opens', async () => {
    const user = await createTestUser(stack);
    const signedIn = await postToken(stack.idp.issuer.replace(/\/$/, ''), {
      grant_type: 'password',
      client_id: stack.idp.testClientId,
      client_secret: stack.idp.testClientSecret,
      username: user.email,
      password: user.password,
      audience: stack.idp.audience,
      scope: 'openid offline_access',
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.refresh_token).toBeTruthy();

    await control('idp/restart');

    const refreshed = await postToken(stack.idp.issuer.replace(/\/$/, ''), {
      grant_type: 'refresh_token',
      client_id: stack.idp.testClientId,
      client_secret: stack.idp.testClientSecret,
      refresh_token: signedIn.body.refresh_token ?? '',
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token ?? '').sub).toBe(user.userId);
    const me = await api('/api/me', { token: refreshed.body.access_token ?? '' });
    expect(me.status).toBe(200);
  });
});
