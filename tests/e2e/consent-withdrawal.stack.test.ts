import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import { verifyChain } from '#lambdas/domain/consent/hash-chain.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { enrolledUser, settleEvents } from '#tests/helpers/persona-webhooks.ts';
import { createTestUser, type TestUser } from '#tests/helpers/tokens.ts';

// Withdrawing consent and giving it again, through the web origin as the account page and the
// consent dialog call it (issue 26, item 1; ADR 0075): what GET /api/me says, what the inquiry
// route answers, and the subject's hash chain after both.

const stack = inject('stack');
const db = stackDb(stack);
const grant = {
  identity_verification_consent: true,
  biometric_data_consent: true,
  privacy_policy_consent: true,
  consent_type: 'identity_verification',
};
const withdrawal = { consent_type: 'identity_verification' };

function call(method: string, path: string, token: string, body?: unknown) {
  return fetch(`${stack.web}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** What GET /api/me says of the consent: standing, and withdrawn (ADR 0075). */
async function consentState(token: string) {
  const response = await call('GET', '/api/me', token);
  expect(response.status).toBe(200);
  const me = (await response.json()) as { consentRecorded: boolean; consentWithdrawn: boolean };
  return { consentRecorded: me.consentRecorded, consentWithdrawn: me.consentWithdrawn };
}

async function chainOf(subjectId: string) {
  const result = await db.client.send(
    new QueryCommand({
      TableName: db.tableName('ConsentLedger'),
      KeyConditionExpression: 'subjectId = :s',
      ExpressionAttributeValues: { ':s': subjectId },
      ConsistentRead: true,
    }),
  );
  return result.Items ?? [];
}

let person: TestUser;
beforeAll(async () => {
  person = await createTestUser(stack);
});

describe('withdrawing consent, then giving it again', () => {
  it('refuses what was never given, withdraws what was, stops the verification, and lets it start again after a new consent', async () => {
    // Never given: 409 consent-not-active, and nothing appended.
    const never = await call('POST', '/api/me/consent-withdrawals', person.token, withdrawal);
    expect(never.status).toBe(409);
    expect(((await never.json()) as { type: string }).type).toBe(problemTypes.consentNotActive);
    expect(await chainOf(person.userId)).toEqual([]);
    expect(await consentState(person.token)).toEqual({ consentRecorded: false, consentWithdrawn: false });

    expect((await call('POST', '/api/consents', person.token, grant)).status).toBe(201);
    expect(await consentState(person.token)).toEqual({ consentRecorded: true, consentWithdrawn: false });

    const withdrawn = await call('POST', '/api/me/consent-withdrawals', person.token, withdrawal);
    expect(withdrawn.status).toBe(201);
    expect(await withdrawn.json()).toMatchObject({
      purpose: 'identity_verification',
      action: 'withdrawn',
      method: 'account_page',
      sequence: 2,
    });
    expect(await consentState(person.token)).toEqual({ consentRecorded: false, consentWithdrawn: true });

    // Twice: 409 again, nothing appended.
    const twice = await call('POST', '/api/me/consent-withdrawals', person.token, withdrawal);
    expect(twice.status).toBe(409);
    expect(await chainOf(person.userId)).toHaveLength(2);

    // No verification without consent.
    const inquiry = await call('POST', '/api/me/kyc/inquiry', person.token);
    expect(inquiry.status).toBe(403);
    expect(((await inquiry.json()) as { type: string }).type).toBe(problemTypes.consentRequired);

    // Consent again: the verification may start.
    expect((await call('POST', '/api/consents', person.token, grant)).status).toBe(201);
    expect(await consentState(person.token)).toEqual({ consentRecorded: true, consentWithdrawn: false });
    expect((await call('POST', '/api/me/kyc/inquiry', person.token)).status).toBe(200);

    // The chain holds all three, linked, and verifies.
    const chain = await chainOf(person.userId);
    expect(chain.map((record) => record.action)).toEqual(['granted', 'withdrawn', 'granted']);
    expect(verifyChain(chain)).toMatchObject({ ok: true, records: 3 });
  });

  it('takes a submitted verification out of review (its inquiry redacted), and a new consent starts a new inquiry', async () => {
    const user = await enrolledUser(stack);
    // The person submits in the Persona widget and Persona marks it for review.
    for (const action of ['start', 'outcome'])
      expect(
        (
          await fetch(`${stack.persona.url}/widget/api/inquiries/${user.inquiryId}/${action}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ sessionToken: user.sessionToken, outcome: 'review' }),
          })
        ).status,
      ).toBe(200);
    await expect
      .poll(async () => (await db.kycState(user.userId))?.status, { timeout: 15_000 })
      .toBe('pending');

    expect((await call('POST', '/api/me/consent-withdrawals', user.token, withdrawal)).status).toBe(201);
    await settleEvents(stack);
    // Persona erased the submitted inquiry; nobody can decide it, so it left the review queue.
    const persona = await fetch(`${stack.persona.url}/api/v1/inquiries/${user.inquiryId}`, {
      headers: { authorization: `Bearer ${stack.persona.apiKey}` },
    });
    const inquiry = (await persona.json()) as { data: { attributes: Record<string, unknown> } };
    expect(inquiry.data.attributes['redacted-at']).not.toBeNull();
    expect(await db.kycState(user.userId)).toMatchObject({ status: 'not_started', decidedBy: 'user' });
    const me = (await (await call('GET', '/api/me', user.token)).json()) as Record<string, unknown>;
    expect(me).toMatchObject({ kycStatus: 'not_started', consentWithdrawn: true });

    // Consent again: a new inquiry, with a session to work in.
    expect((await call('POST', '/api/consents', user.token, grant)).status).toBe(201);
    const again = await call('POST', '/api/me/kyc/inquiry', user.token);
    expect(again.status).toBe(200);
    const started = (await again.json()) as { inquiryId: string; sessionToken?: string };
    expect(started.inquiryId).not.toBe(user.inquiryId);
    expect(started.sessionToken).toEqual(expect.any(String));
  });
});
