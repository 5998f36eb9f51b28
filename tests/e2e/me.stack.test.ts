import { randomBytes } from 'node:crypto';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import { registeredUser } from '#tests/helpers/registration.ts';
import { createTestUser, mailbox, managementToken } from '#tests/helpers/tokens.ts';

// GET /api/me, POST /api/me/verification-email and the KYC sync to Auth0, on the local stack.

const stack = inject('stack');
const db = stackDb(stack);

const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${stack.web}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) },
  });

async function idpUser(userId: string) {
  const response = await managementFetch(`${stack.idp.issuer}api/v2/users/${encodeURIComponent(userId)}`, {
    headers: { authorization: `Bearer ${await managementToken(stack)}` },
  });
  return {
    status: response.status,
    user: (await response.json()) as { app_metadata: Record<string, unknown> },
  };
}

async function writeKycState(userId: string, status: string, updatedAt: string) {
  await db.client.send(
    new PutCommand({
      TableName: db.tableName('KycState'),
      Item: {
        pk: `USER#${userId}`,
        sk: 'STATE',
        status,
        updatedAt,
        inquiryId: `inq_${randomBytes(6).toString('hex')}`,
      },
    }),
  );
}

const eventBridge = new EventBridgeClient({
  endpoint: stack.eventBridge.endpoint,
  region: 'eu-central-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

async function putKycStatusChanged(detail: Record<string, unknown>) {
  const answer = await eventBridge.send(
    new PutEventsCommand({
      Entries: [
        {
          EventBusName: stack.eventBridge.busName,
          Source: 'platform.kyc',
          DetailType: 'KycStatusChanged',
          Detail: JSON.stringify(detail),
        },
      ],
    }),
  );
  expect(answer.FailedEntryCount ?? 0).toBe(0);
  expect((await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' })).status).toBe(200);
}

describe('GET /api/me', () => {
  it("answers a freshly registered user's server-side state, then follows a KYC change and a consent", async () => {
    const { email, token, userId } = await registeredUser(stack);
    const first = await api('/api/me', token);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      userId,
      email,
      emailVerified: true,
      name: 'Grace Hopper',
      organizationName: 'Orbit Bio',
      organizationType: 'commercial',
      // The Auth0 organization registration created (ADR 0083).
      organizationId: expect.stringMatching(/^org_/),
      // The registrant is their organization's first admin (ADR 0084).
      organizationRole: 'org_admin',
      role: 'user',
      kycStatus: 'not_started',
      consentRecorded: false,
      consentWithdrawn: false,
      kycReason: null,
      kycNewAttemptAllowed: false,
      kycAttempts: { used: 0, max: 3 },
      deletionRequest: null,
    });

    await writeKycState(userId, 'pending', new Date().toISOString());
    const consent = await api('/api/consents', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        identity_verification_consent: true,
        biometric_data_consent: true,
        privacy_policy_consent: true,
        consent_type: 'identity_verification',
      }),
    });
    expect(consent.status).toBe(201);

    // The token still says not_started: the answer comes from the KYC table and the ledger.
    const second = await (await api('/api/me', token)).json();
    expect(second).toMatchObject({ kycStatus: 'pending', consentRecorded: true });
  });

  it('answers organizationName null for an account created outside registration', async () => {
    const user = await createTestUser(stack);
    const me = await (await api('/api/me', user.token)).json();
    expect(me).toMatchObject({ userId: user.userId, organizationName: null, organizationType: 'commercial' });
  });

  it('answers 404 to a valid token of an account the product erased', async () => {
    const user = await createTestUser(stack);
    // The marker the erasure leaves (lambdas/domain/data-rights/erase.ts) once the account is gone.
    await new DynamoDbUserProfiles(db.client, db.tableName('Submissions')).markErased(
      user.userId,
      Math.floor(Date.now() / 1000) + 3600,
    );
    const response = await api('/api/me', user.token);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { type: string }).type).toBe(problemTypes.accountNotFound);
  });

  it('answers 401 without a token', async () => {
    expect((await fetch(`${stack.web}/api/me`)).status).toBe(401);
  });
});

describe('POST /api/me/verification-email', () => {
  it('sends one verification email, then answers 429 with Retry-After within the minute', async () => {
    const user = await createTestUser(stack, undefined, { emailVerified: false });
    const first = await api('/api/me/verification-email', user.token, { method: 'POST' });
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ success: true });
    // Queued on the bus (ADR 0059): the Auth0 job runs in DeliverVerificationEmail.
    expect((await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' })).status).toBe(200);
    const second = await api('/api/me/verification-email', user.token, { method: 'POST' });
    expect(second.status).toBe(429);
    expect(((await second.json()) as { type: string }).type).toBe(problemTypes.rateLimited);
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await mailbox(stack)).filter((m) => m.destination.to.includes(user.email))).toHaveLength(1);
  });

  it('answers 200 alreadyVerified to a verified user and sends nothing', async () => {
    const user = await createTestUser(stack, undefined, { emailVerified: true });
    const response = await api('/api/me/verification-email', user.token, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, alreadyVerified: true });
    expect((await mailbox(stack)).filter((m) => m.destination.to.includes(user.email))).toHaveLength(0);
  });
});

describe('KycStatusChanged on the bus', () => {
  it('copies the current status into Auth0 app_metadata and emails the decision once', async () => {
    const user = await createTestUser(stack);
    const decidedAt = new Date().toISOString();
    await writeKycState(user.userId, 'approved', decidedAt);
    const detail = {
      userId: user.userId,
      status: 'approved',
      previousStatus: 'pending',
      inquiryId: 'inq_local',
      decidedBy: 'admin',
      occurredAt: decidedAt,
    };
    await putKycStatusChanged(detail);

    const { user: synced } = await idpUser(user.userId);
    expect(synced.app_metadata).toEqual({
      role: 'user',
      organization_type: 'commercial',
      kyc_status: 'approved',
      kyc_updated_at: decidedAt,
    });
    const mails = (await mailbox(stack)).filter((m) => m.destination.to.includes(user.email));
    expect(mails.map((m) => m.subject)).toEqual(['Your identity is verified']);
    expect(mails[0]?.body.text).toContain('/dashboard');
    const dead = (await (await fetch(`${stack.api}/__local/dead-letters`)).json()) as unknown;
    expect(JSON.stringify(dead)).not.toContain(user.userId);
  });

  it('emails a decision once when the outbox publishes the same change twice, under two event ids', async () => {
    const user = await createTestUser(stack);
    const decidedAt = new Date().toISOString();
    await writeKycState(user.userId, 'rejected', decidedAt);
    const detail = {
      userId: user.userId,
      status: 'rejected',
      previousStatus: 'pending',
      inquiryId: 'inq_local',
      decidedBy: 'admin',
      occurredAt: decidedAt,
      changeId: `${decidedAt}#admin_${randomBytes(6).toString('hex')}`,
    };
    // The immediate publish, then the relay's (marking the outbox item published had failed).
    await putKycStatusChanged(detail);
    await putKycStatusChanged(detail);
    const mails = (await mailbox(stack)).filter((m) => m.destination.to.includes(user.email));
    expect(mails.map((m) => m.subject)).toEqual(['Your identity verification was not approved']);
  });

  it('converges on the table state when an older event arrives after a newer one', async () => {
    const user = await createTestUser(stack);
    const rejectedAt = new Date().toISOString();
    await writeKycState(user.userId, 'rejected', rejectedAt);
    // The stale "pending" event is delivered last, but the table already says rejected.
    await putKycStatusChanged({
      userId: user.userId,
      status: 'pending',
      previousStatus: 'not_started',
      inquiryId: 'inq_local',
      decidedBy: 'persona',
      occurredAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const { user: synced } = await idpUser(user.userId);
    expect(synced.app_metadata).toMatchObject({ kyc_status: 'rejected', kyc_updated_at: rejectedAt });
  });
});

describe("the functions' Auth0 credentials (stack.json idp.m2mClients)", () => {
  it("the decision email's credentials can read a user but cannot create one (403 insufficient_scope)", async () => {
    const { clientId, clientSecret } = stack.idp.m2mClients.auth0ReadUsers;
    const tokenResponse = await fetch(`${stack.idp.issuer}oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        audience: `${stack.idp.issuer}api/v2/`,
      }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const email = `intruder-${randomBytes(6).toString('hex')}@orbit-bio.example`;
    const management = (path: string, init: RequestInit = {}) =>
      managementFetch(`${stack.idp.issuer}api/v2/${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    const created = await management('users', {
      method: 'POST',
      body: JSON.stringify({
        email,
        password: 'Intruder-Pass-1',
        connection: 'Username-Password-Authentication',
      }),
    });
    expect(created.status).toBe(403);
    expect(await created.json()).toMatchObject({ errorCode: 'insufficient_scope' });
    const lookup = await management(`users-by-email?email=${encodeURIComponent(email)}`);
    expect(lookup.status).toBe(200);
    expect(await lookup.json()).toEqual([]);
  });
});
