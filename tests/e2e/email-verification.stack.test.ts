import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import { settleEvents } from '#tests/helpers/persona-webhooks.ts';
import { mailbox, managementToken } from '#tests/helpers/tokens.ts';

// Consent and identity verification need a verified email (issue 9, section 2), through every
// layer of the local stack: the identity provider's post-login Action puts `email_verified` on the
// access token, the gateway's JWT authorizer hands it to the handlers, and the use cases refuse
// before anything is written or any Persona inquiry is opened. Verifying through the emailed link
// and refreshing the token (the Action runs again) lets the same person through.

const stack = inject('stack');
const db = stackDb(stack);
const claim = `${stack.idp.claimsNamespace}email_verified`;

const grant = {
  identity_verification_consent: true,
  biometric_data_consent: true,
  privacy_policy_consent: true,
  consent_type: 'identity_verification',
};

const api = (path: string, token: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${stack.web}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

/** Tokens as the web holds them: an access token and a refresh token (offline_access). */
async function signIn(email: string, password: string) {
  const response = await fetch(`${stack.idp.issuer}oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      username: email,
      password,
      audience: stack.idp.audience,
      scope: 'openid profile email offline_access',
      client_id: stack.idp.testClientId,
      client_secret: stack.idp.testClientSecret,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token: string };
}

/** `getAccessTokenSilently({ cacheMode: 'off' })`: the refresh-token grant, the Action runs again. */
async function refresh(refreshToken: string) {
  const response = await fetch(`${stack.idp.issuer}oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: stack.idp.testClientId,
      client_secret: stack.idp.testClientSecret,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token: string };
}

async function ledgerOf(subjectId: string) {
  const { Items = [] } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName('ConsentLedger'),
      KeyConditionExpression: 'subjectId = :s',
      ExpressionAttributeValues: { ':s': subjectId },
      ConsistentRead: true,
    }),
  );
  return Items;
}

async function kycItemsOf(userId: string) {
  const { Items = [] } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName('KycState'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${userId}` },
      ConsistentRead: true,
    }),
  );
  return Items;
}

/** Inquiries the Persona emulator holds for a reference id (the user's `sub`). */
async function personaInquiriesOf(referenceId: string) {
  const response = await fetch(
    `${stack.persona.url}/api/v1/inquiries?filter[reference-id]=${encodeURIComponent(referenceId)}`,
    { headers: { authorization: `Bearer ${stack.persona.apiKey}` } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: unknown[] }).data;
}

let user: { userId: string; email: string; password: string };

beforeAll(async () => {
  // An account that did not come through registration's verified password link: unverified.
  const email = `unverified-${randomBytes(6).toString('hex')}@test-org.example`;
  const password = `Pw-${randomBytes(12).toString('base64url')}`;
  const response = await managementFetch(`${stack.idp.issuer}api/v2/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await managementToken(stack)}` },
    body: JSON.stringify({
      email,
      password,
      name: 'Unverified Person',
      connection: 'Username-Password-Authentication',
      email_verified: false,
      app_metadata: { role: 'user', organization_type: 'commercial', kyc_status: 'not_started' },
    }),
  });
  expect(response.status).toBe(201);
  user = { userId: ((await response.json()) as { user_id: string }).user_id, email, password };
});

describe('a caller whose email is not verified', () => {
  it('is refused consent and inquiry creation with 403 email-not-verified; nothing is written or opened; after verifying and a token refresh both work', async () => {
    const tokens = await signIn(user.email, user.password);
    expect(decodeJwt(tokens.access_token)[claim]).toBe(false);

    const consent = await api('/api/consents', tokens.access_token, { method: 'POST', body: grant });
    expect(consent.status).toBe(403);
    expect(consent.headers.get('content-type')).toBe('application/problem+json');
    expect(await consent.json()).toEqual({
      type: problemTypes.emailNotVerified,
      title: 'Email Not Verified',
      status: 403,
      detail: 'Verify your email address first, then try again.',
    });
    expect(problemTypes.emailNotVerified).toMatch(/^https:\/\/.+\/problems\/email-not-verified$/);

    const inquiry = await api('/api/me/kyc/inquiry', tokens.access_token, { method: 'POST' });
    expect(inquiry.status).toBe(403);
    expect(((await inquiry.json()) as { type: string }).type).toBe(problemTypes.emailNotVerified);

    expect(await ledgerOf(user.userId)).toEqual([]);
    expect(await kycItemsOf(user.userId)).toEqual([]);
    expect(await personaInquiriesOf(user.userId)).toEqual([]);

    // The person verifies through the emailed link, as the Verify Your Email screen asks.
    const sent = await api('/api/me/verification-email', tokens.access_token, { method: 'POST' });
    expect(sent.status).toBe(202);
    // The send is queued (ADR 0059): its target may wait its turn at reserved concurrency (ADR 0062).
    await settleEvents(stack);
    const mail = (await mailbox(stack)).find(
      (m) => m.destination.to.includes(user.email) && m.subject === 'Verify your email',
    );
    const link = /https?:\/\/\S+\/u\/email-verification\?ticket=[\w-]+/.exec(mail?.body.text ?? '')?.[0];
    expect(link).toBeTruthy();
    expect((await fetch(link as string)).status).toBe(200);

    // The token in hand still says unverified: the API trusts the token, so it still refuses.
    const stale = await api('/api/consents', tokens.access_token, { method: 'POST', body: grant });
    expect(stale.status).toBe(403);
    expect(await ledgerOf(user.userId)).toEqual([]);

    // A refresh runs the Action again: the new token carries the verification.
    const fresh = await refresh(tokens.refresh_token);
    expect(decodeJwt(fresh.access_token)[claim]).toBe(true);

    const recorded = await api('/api/consents', fresh.access_token, { method: 'POST', body: grant });
    expect(recorded.status).toBe(201);
    expect(await ledgerOf(user.userId)).toHaveLength(1);

    const started = await api('/api/me/kyc/inquiry', fresh.access_token, { method: 'POST' });
    expect(started.status).toBe(200);
    const { inquiryId } = (await started.json()) as { inquiryId: string };
    expect(inquiryId).toMatch(/^inq_/);
    expect(await personaInquiriesOf(user.userId)).toHaveLength(1);
    const { Item } = await db.client.send(
      new GetCommand({
        TableName: db.tableName('KycState'),
        Key: { pk: `USER#${user.userId}`, sk: 'STATE' },
        ConsistentRead: true,
      }),
    );
    expect(Item).toMatchObject({ inquiryId, status: 'not_started' });
  });
});
