import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { problemTypes } from '#contracts/problem.ts';
import { deletionRequestRetentionYears } from '#contracts/retention.ts';
import { DeletionRequestNotConfirmedError } from '#lambdas/domain/data-rights/erase.ts';
import { yearsAfter } from '#lambdas/domain/data-rights/erasure-plan.ts';
import { routes } from '#lambdas/routes.ts';
import { configFromStack } from '#scripts/data-erase/config.ts';
import { runErase } from '#scripts/data-erase/run.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import {
  type EnrolledUser,
  enrolledUser,
  personaEvent,
  sendWebhook,
  settleEvents,
  webApi,
} from '#tests/helpers/persona-webhooks.ts';
import { createTestUser, mailbox, managementToken, passwordToken } from '#tests/helpers/tokens.ts';
import { policyFacts } from '#web/content/pages/legal/facts.ts';

// The public forms through the local API gateway into DynamoDB Local and SES, and the operator's
// erasure of a person's data end to end.

const stack = inject('stack');
const db = stackDb(stack);
const submissions = () => db.scan('Submissions');

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.web}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const uniqueEmail = (domain = 'quantum-bio.example') => `p-${randomBytes(5).toString('hex')}@${domain}`;

async function expectProblem(response: Response, field: string, message: string) {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as { status: number; errors: unknown[] };
  expect(problem.status).toBe(400);
  expect(problem.errors).toContainEqual({ field, message });
}

describe.each([
  ['/api/investor-inquiries', 'investor_inquiry'],
  ['/api/contact', 'contact_message'],
])('POST %s', (path, kind) => {
  const form = () => ({
    name: 'Grace Hopper',
    email: uniqueEmail(),
    organization: 'Hopper Labs',
    message: 'We would like to talk about the satellite vision.',
  });

  it('stores the message with the normalised address and answers 201', async () => {
    const body = form();
    const response = await post(path, { ...body, email: body.email.toUpperCase() });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ success: true });
    const items = (await submissions()).filter((item) => item.email === body.email);
    expect(items).toEqual([
      expect.objectContaining({
        kind,
        name: 'Grace Hopper',
        organization: 'Hopper Labs',
        message: body.message,
        email: body.email,
      }),
    ]);
  });

  it('refuses a personal address with the product message and stores nothing', async () => {
    const before = (await submissions()).length;
    await expectProblem(
      await post(path, { ...form(), email: 'grace@gmail.com' }),
      'email',
      businessEmailMessages.personal,
    );
    expect(await submissions()).toHaveLength(before);
  });

  it('refuses a one-letter name and unknown fields, and stores nothing', async () => {
    const before = (await submissions()).length;
    await expectProblem(
      await post(path, { ...form(), name: 'G' }),
      'name',
      'Name must have at least 2 characters',
    );
    await expectProblem(await post(path, { ...form(), role: 'admin' }), 'role', 'This field is not allowed.');
    expect(await submissions()).toHaveLength(before);
  });
});

describe('POST /api/contact', () => {
  it('asks for a message of at least 10 characters', async () => {
    const response = await post('/api/contact', {
      name: 'Grace Hopper',
      email: uniqueEmail(),
      organization: 'Hopper Labs',
      message: 'Hi there',
    });
    await expectProblem(response, 'message', 'Please enter a message of at least 10 characters');
  });
});

describe('POST /api/cookie-consents', () => {
  const choice = () => ({
    consentId: randomUUID(),
    analytics: true,
    marketing: false,
    personalization: true,
    revision: '2025-06-08',
  });

  it("stores the choice once per consent id and revision, with the client's /24 network and no user agent", async () => {
    const body = choice();
    const headers = {
      // Claims of the client's own: the edge replaces the one and the API ignores the other.
      'x-forwarded-for': '203.0.113.77',
      'x-viewer-ip': '203.0.113.77',
      'user-agent': 'Mozilla/5.0 (X11; Linux) Chrome/140',
    };
    const first = await post('/api/cookie-consents', body, headers);
    const again = await post('/api/cookie-consents', body, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    const items = (await submissions()).filter((item) => item.consentId === body.consentId);
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item).toMatchObject({
      kind: 'cookie_consent',
      analytics: true,
      marketing: false,
      ipAddress: '127.0.0.0',
    });
    const stored = JSON.stringify(item);
    expect(stored).not.toContain('203.0.113');
    expect(stored).not.toContain('127.0.0.1');
    expect(stored).not.toContain('Mozilla');
    const thirteenMonths = (Number(item?.expiresAt) * 1000 - Date.now()) / (24 * 3600 * 1000);
    expect(thirteenMonths).toBeGreaterThan(390);
    expect(thirteenMonths).toBeLessThan(400);
    await post('/api/cookie-consents', { ...body, revision: '2026-01-01', analytics: false }, headers);
    expect((await submissions()).filter((i) => i.consentId === body.consentId)).toHaveLength(2);
  });

  it('refuses a consent id that is not a UUID', async () => {
    await expectProblem(
      await post('/api/cookie-consents', { ...choice(), consentId: 'abc' }),
      'consentId',
      'consentId must be a UUID',
    );
  });
});

const deletionRequest = (id: string) =>
  db.client
    .send(
      new GetCommand({
        TableName: db.tableName('Submissions'),
        Key: { pk: `DELETION#${id}`, sk: 'REQUEST' },
      }),
    )
    .then((answer) => answer.Item);

const mailsTo = async (email: string) =>
  (await mailbox(stack)).filter((m) => m.destination.to.includes(email));

/** The token from the confirmation email's link, as the confirmation page reads it. */
async function confirmationToken(email: string, index = 0): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        text = (await mailsTo(email))[index]?.body.text ?? '';
        return text;
      },
      { timeout: 10_000 },
    )
    .toContain('/data-deletion/confirm#token=');
  const token = /\/data-deletion\/confirm#token=(\S+)/.exec(text)?.[1];
  if (!token) throw new Error('no confirmation link');
  return decodeURIComponent(token);
}

const confirm = (token: string) => post('/api/data-deletion-requests/confirm', { token });
const in30Days = () => new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);

describe('POST /api/data-deletion-requests', () => {
  it('answers 202, stores the request unconfirmed with only a hash of the token, and emails a link', async () => {
    const email = uniqueEmail('gmail.com');
    const response = await post('/api/data-deletion-requests', { email, name: 'Pat', details: 'Everything' });
    expect(response.status).toBe(202);
    const answer = (await response.json()) as { requestId: string; confirmBy: string; dueBy: string };
    expect(Object.keys(answer).sort()).toEqual(['confirmBy', 'dueBy', 'requestId']);
    expect(answer.dueBy).toBe(
      new Date(Date.parse(answer.confirmBy) + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10),
    );
    const hours = (Date.parse(answer.confirmBy) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const token = await confirmationToken(email);
    const [mail] = await mailsTo(email);
    expect(mail?.subject).toBe('Confirm your data deletion request');
    expect(mail?.body.text).toContain(`${stack.web}/data-deletion/confirm#token=`);
    const item = await deletionRequest(answer.requestId);
    expect(item).toMatchObject({ email, name: 'Pat', details: 'Everything', status: 'unconfirmed' });
    expect(item?.dueBy).toBeUndefined();
    expect(item?.confirmationTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(item)).not.toContain(token.split('.')[1]);
  });

  it('answers an address with an account exactly as one without', async () => {
    const user = await createTestUser(stack);
    const shapes = [];
    for (const email of [user.email, uniqueEmail()]) {
      const response = await post('/api/data-deletion-requests', { email });
      shapes.push({ status: response.status, keys: Object.keys((await response.json()) as object).sort() });
    }
    expect(shapes[0]).toEqual(shapes[1]);
  });

  it('confirms once with the emailed token, starting the 30 days; refuses reuse, another request’s id and expiry', async () => {
    const email = uniqueEmail('gmail.com');
    const { requestId } = (await (await post('/api/data-deletion-requests', { email })).json()) as {
      requestId: string;
    };
    const token = await confirmationToken(email);

    // Someone else's request: their id with this email's secret.
    const other = uniqueEmail('gmail.com');
    const { requestId: otherId } = (await (
      await post('/api/data-deletion-requests', { email: other })
    ).json()) as {
      requestId: string;
    };
    const stolen = await confirm(`${otherId}.${token.split('.')[1]}`);
    expect(stolen.status).toBe(410);
    expect(((await stolen.json()) as { type: string }).type).toBe(problemTypes.deletionConfirmationInvalid);
    expect((await deletionRequest(otherId))?.status).toBe('unconfirmed');

    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ requestId, dueBy: in30Days() });
    expect(await deletionRequest(requestId)).toMatchObject({
      status: 'received',
      confirmedBy: 'email_link',
      dueBy: in30Days(),
    });

    const again = await confirm(token);
    expect(again.status).toBe(410);
    expect(again.headers.get('content-type')).toBe('application/problem+json');

    // The other request's link, once its 24 hours are over.
    const otherToken = await confirmationToken(other);
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName('Submissions'),
        Key: { pk: `DELETION#${otherId}`, sk: 'REQUEST' },
        UpdateExpression: 'SET confirmBy = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expect((await confirm(otherToken)).status).toBe(410);
    expect((await deletionRequest(otherId))?.status).toBe('unconfirmed');
  });

  it('refuses a malformed token with a field error', async () => {
    await expectProblem(await confirm('abc'), 'token', 'The confirmation link is incomplete');
  });

  it('sends at most 3 confirmation emails a day to one address; later requests answer the same and send nothing', async () => {
    const email = uniqueEmail('gmail.com');
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const response = await post('/api/data-deletion-requests', {
        email: i % 2 ? email.toUpperCase() : email,
      });
      answers.push({ status: response.status, keys: Object.keys((await response.json()) as object).sort() });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    await expect.poll(async () => (await mailsTo(email)).length, { timeout: 10_000 }).toBe(3);
    // Delivery is synchronous in the handler: a 4th or 5th email would be in the mailbox by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await mailsTo(email)).toHaveLength(3);
    // The limiter keeps a hash of the address, never the address.
    const limits = (await submissions()).filter((item) =>
      String(item.pk).startsWith('RATE#deletion-confirmation-email#'),
    );
    expect(limits.length).toBeGreaterThan(0);
    expect(JSON.stringify(limits)).not.toContain(email);
  });

  it('refuses an invalid address and sends nothing', async () => {
    const before = (await mailbox(stack)).length;
    await expectProblem(
      await post('/api/data-deletion-requests', { email: 'nope' }),
      'email',
      'Please enter a valid email address',
    );
    expect(await mailbox(stack)).toHaveLength(before);
  });
});

describe('POST /api/me/data-deletion-requests (signed in)', () => {
  it('is for the token’s own address only, confirmed at once, due in 30 days', async () => {
    const user = await createTestUser(stack);
    const response = await fetch(`${stack.web}/api/me/data-deletion-requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ details: 'All of it' }),
    });
    expect(response.status).toBe(202);
    const answer = (await response.json()) as { requestId: string; dueBy: string };
    expect(answer.dueBy).toBe(in30Days());
    expect(await deletionRequest(answer.requestId)).toMatchObject({
      email: user.email,
      status: 'received',
      confirmedBy: 'access_token',
      details: 'All of it',
    });
  });

  it('takes no address from the body and needs a token', async () => {
    const user = await createTestUser(stack);
    const withEmail = await fetch(`${stack.web}/api/me/data-deletion-requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'victim@gmail.com' }),
    });
    expect(withEmail.status).toBe(400);
    expect((await post('/api/me/data-deletion-requests', {})).status).toBe(401);
  });

  it('refuses a caller whose address is not verified', async () => {
    const user = await createTestUser(stack, undefined, { emailVerified: false });
    const response = await fetch(`${stack.web}/api/me/data-deletion-requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { type: string }).type).toBe(problemTypes.emailNotVerified);
  });
});

describe('erasing a person’s data (npm run data:erase)', () => {
  const config = configFromStack(stack);
  let user: Awaited<ReturnType<typeof createTestUser>>;
  let requestId: string;
  let inquiryId: string;

  const personaApi = (path: string, init: RequestInit = {}) =>
    fetch(`${stack.persona.url}/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${stack.persona.apiKey}`, 'content-type': 'application/json' },
    });
  const ofEmail = async (email: string) =>
    (
      await db.client.send(
        new QueryCommand({
          TableName: db.tableName('Submissions'),
          IndexName: 'byEmail',
          KeyConditionExpression: 'email = :e',
          ExpressionAttributeValues: { ':e': email },
        }),
      )
    ).Items ?? [];
  const idpUserStatus = async (userId: string) =>
    (
      await managementFetch(`${stack.idp.issuer}api/v2/users/${encodeURIComponent(userId)}`, {
        headers: { authorization: `Bearer ${await managementToken(stack)}` },
      })
    ).status;

  beforeAll(async () => {
    user = await createTestUser(stack);
    const forms = {
      name: 'Test User',
      email: user.email,
      organization: 'Test Org',
      message: 'Please tell me more about pricing.',
    };
    expect((await post('/api/waitlist', { email: user.email })).status).toBe(201);
    expect((await post('/api/contact', forms)).status).toBe(201);
    expect((await post('/api/investor-inquiries', forms)).status).toBe(201);
    // The KYC and consent records a verified user has (written as their features write them).
    const created = await personaApi('/inquiries', {
      method: 'POST',
      body: JSON.stringify({
        data: {
          attributes: { 'inquiry-template-id': stack.persona.templateId, 'reference-id': user.userId },
        },
      }),
    });
    inquiryId = ((await created.json()) as { data: { id: string } }).data.id;
    await db.client.send(
      new PutCommand({
        TableName: db.tableName('KycState'),
        Item: {
          pk: `USER#${user.userId}`,
          sk: 'STATE',
          status: 'approved',
          inquiryId,
          updatedAt: new Date().toISOString(),
        },
      }),
    );
    const consent = await fetch(`${stack.web}/api/consents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        identity_verification_consent: true,
        biometric_data_consent: true,
        privacy_policy_consent: true,
        consent_type: 'identity_verification',
      }),
    });
    expect(consent.status).toBe(201);
    const response = await post('/api/data-deletion-requests', { email: user.email });
    requestId = ((await response.json()) as { requestId: string }).requestId;
  });

  it('refuses the request while it is unconfirmed (exit code 3 from the command line), and changes nothing', async () => {
    await expect(runErase(config, requestId)).rejects.toBeInstanceOf(DeletionRequestNotConfirmedError);
    const dir = await mkdtemp(join(tmpdir(), 'erase-'));
    try {
      const stackFile = join(dir, 'stack.json');
      await writeFile(stackFile, JSON.stringify(stack));
      const run = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'scripts/data-erase.ts', '--request', requestId, '--stack', stackFile],
        { env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(`Data deletion request ${requestId} is not confirmed yet`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(await idpUserStatus(user.userId)).toBe(200);
    expect((await deletionRequest(requestId))?.status).toBe('unconfirmed');
    // The owner confirms through the emailed link; from now on the request counts.
    expect((await confirm(await confirmationToken(user.email))).status).toBe(200);
  });

  it('lists on a dry run (from the command line) what it would do, and changes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'erase-'));
    try {
      const stackFile = join(dir, 'stack.json');
      await writeFile(stackFile, JSON.stringify(stack));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/data-erase.ts',
          '--request',
          requestId,
          '--stack',
          stackFile,
          '--dry-run',
        ],
        { env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
      );
      expect(stdout).toContain('Dry run');
      expect(stdout).toMatch(/deleted submissions contact_message/);
      expect(stdout).toMatch(/deleted identityProvider user_account/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(await idpUserStatus(user.userId)).toBe(200);
    expect((await ofEmail(user.email)).map((i) => i.kind).sort()).toEqual([
      'contact_message',
      'deletion_request',
      'investor_inquiry',
      'waitlist',
    ]);
  });

  it('deletes the account and the submissions, redacts the inquiry, keeps the ledger and KYC decision', async () => {
    const result = await runErase(config, requestId);
    expect(result.kind).toBe('completed');
    // The run is in the admin audit trail: the operator, the request, counts (ADR 0078).
    const runs = (await db.scan('AdminAuditLog')).filter((entry) => entry.targetId === requestId);
    expect(runs).toEqual([
      expect.objectContaining({
        actorType: 'operator',
        actorId: expect.stringMatching(/^local:/),
        action: 'erasure_run',
        targetType: 'deletion_request',
        details: expect.objectContaining({ accounts: 1, inquiriesRedacted: 1 }),
      }),
    ]);

    expect(await idpUserStatus(user.userId)).toBe(404);
    expect((await ofEmail(user.email)).map((i) => i.kind)).toEqual(['deletion_request']);
    const inquiry = (await (await personaApi(`/inquiries/${inquiryId}`)).json()) as {
      data: { attributes: Record<string, unknown> };
    };
    expect(inquiry.data.attributes['redacted-at']).not.toBeNull();

    const ledger = (await db.scan('ConsentLedger')).filter((r) => r.subjectId === user.userId);
    expect(ledger).toHaveLength(1);
    const kyc = (await db.scan('KycState')).filter((r) => r.pk === `USER#${user.userId}`);
    expect(kyc).toHaveLength(1);

    const request = (
      await db.client.send(
        new GetCommand({
          TableName: db.tableName('Submissions'),
          Key: { pk: `DELETION#${requestId}`, sk: 'REQUEST' },
        }),
      )
    ).Item;
    expect(request?.status).toBe('completed');
    expect(typeof request?.completedAt).toBe('string');
    const deletedKinds = ((request?.deleted ?? []) as { kind: string }[]).map((d) => d.kind).sort();
    expect(deletedKinds).toEqual([
      'contact_message',
      'investor_inquiry',
      'kyc_inquiry',
      'user_account',
      'waitlist',
    ]);
    const kept = (request?.kept ?? []) as { kind: string; reason: string }[];
    expect(kept.map((k) => k.kind).sort()).toEqual(['consent_record', 'deletion_request', 'kyc_decision']);
    expect(kept.find((k) => k.kind === 'consent_record')?.reason).toMatch(/Consent proof/);
    expect(kept.find((k) => k.kind === 'kyc_decision')?.reason).toMatch(
      new RegExp(`${policyFacts.kycRetentionYears} years after the relationship ends`),
    );
    // What is kept expires the policy's periods after the relationship ended (the erasure's start).
    const ended = new Date(request?.startedAt as string);
    const yearsLater = (years: number) =>
      new Date(
        Date.UTC(
          ended.getUTCFullYear() + years,
          ended.getUTCMonth(),
          ended.getUTCDate(),
          ended.getUTCHours(),
          ended.getUTCMinutes(),
          ended.getUTCSeconds(),
          ended.getUTCMilliseconds(),
        ),
      );
    const consentUntil = yearsLater(policyFacts.contractRetentionYears);
    const kycUntil = yearsLater(policyFacts.kycRetentionYears);
    expect(kept.find((k) => k.kind === 'consent_record')).toMatchObject({
      retainUntil: consentUntil.toISOString(),
    });
    expect(kept.find((k) => k.kind === 'kyc_decision')).toMatchObject({
      retainUntil: kycUntil.toISOString(),
    });
    expect(ledger[0]?.expiresAt).toBe(Math.floor(consentUntil.getTime() / 1000));
    expect(kyc[0]?.expiresAt).toBe(Math.floor(kycUntil.getTime() / 1000));
  });

  it('is safe to run again: nothing changes and the first report stands', async () => {
    const again = await runErase(config, requestId);
    expect(again.kind).toBe('already-completed');
    expect((await ofEmail(user.email)).map((i) => i.kind)).toEqual(['deletion_request']);
    expect((await db.scan('ConsentLedger')).filter((r) => r.subjectId === user.userId)).toHaveLength(1);
  });
});

describe('erasing a person with two inquiries (failed once, retried, approved), through the web origin', () => {
  const config = configFromStack(stack);
  const api = webApi(stack);
  let adminToken: string;
  let user: EnrolledUser;
  let secondInquiryId: string;
  let requestId: string;

  const webhook = async (name: string, inquiryId: string) => {
    const delivered = await sendWebhook(
      stack,
      personaEvent(name, { userId: user.userId, inquiryId }, new Date()),
    );
    expect(delivered.status).toBe(200);
    await settleEvents(stack);
  };
  const redactedAt = async (inquiryId: string) =>
    (
      (await (
        await fetch(`${stack.persona.url}/api/v1/inquiries/${inquiryId}`, {
          headers: { authorization: `Bearer ${stack.persona.apiKey}` },
        })
      ).json()) as { data: { attributes: Record<string, unknown> } }
    ).data.attributes['redacted-at'];
  const partition = async () =>
    (await db.scan('KycState')).filter(
      (item) =>
        item.pk === `USER#${user.userId}` ||
        (String(item.pk).startsWith('INQUIRY#') && item.userId === user.userId),
    );
  const queue = async () => {
    const response = await api('/api/admin/verifications?status=all', { token: adminToken });
    expect(response.status).toBe(200);
    return ((await response.json()) as { items: { userId: string }[] }).items.map((item) => item.userId);
  };

  beforeAll(async () => {
    const admin = stack.accounts.find((account) => account.role === 'admin');
    if (!admin) throw new Error('stack.json has no admin account');
    adminToken = await passwordToken(stack, admin.email, admin.password);
    // The first attempt: submitted and declined; a reviewer allows another; the second is approved.
    user = await enrolledUser(stack);
    await webhook('inquiry.completed', user.inquiryId);
    await webhook('inquiry.declined', user.inquiryId);
    const allowed = await api(`/api/admin/verifications/${encodeURIComponent(user.userId)}/new-attempt`, {
      method: 'POST',
      token: adminToken,
      body: { reason: 'A readable scan arrived by post' },
    });
    expect(allowed.status).toBe(200);
    const started = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
    expect(started.status).toBe(200);
    secondInquiryId = ((await started.json()) as { inquiryId: string }).inquiryId;
    await webhook('inquiry.completed', secondInquiryId);
    await webhook('inquiry.approved', secondInquiryId);
    expect(await db.kycState(user.userId)).toMatchObject({ status: 'approved', inquiryId: secondInquiryId });
    expect(await queue()).toContain(user.userId);
  });

  it('redacts both inquiries at Persona, reports each, and expires every KYC item of the person', async () => {
    // The person asks, and confirms through the emailed link.
    const mailsBefore = (await mailsTo(user.email)).length; // the decisions' emails
    const response = await post('/api/data-deletion-requests', { email: user.email });
    requestId = ((await response.json()) as { requestId: string }).requestId;
    expect((await confirm(await confirmationToken(user.email, mailsBefore))).status).toBe(200);
    const result = await runErase(config, requestId);
    expect(result.kind).toBe('completed');
    expect(await redactedAt(user.inquiryId)).toEqual(expect.any(String));
    expect(await redactedAt(secondInquiryId)).toEqual(expect.any(String));

    const request = await deletionRequest(requestId);
    const persona = ((request?.deleted ?? []) as { store: string; key: string; action: string }[])
      .filter((entry) => entry.store === 'persona')
      .map((entry) => `${entry.action} ${entry.key}`)
      .sort();
    expect(persona).toEqual([`redacted ${user.inquiryId}`, `redacted ${secondInquiryId}`].sort());
    // The answered request itself goes after the table's period (ADR 0077).
    expect(request?.expiresAt).toBe(
      Math.floor(
        yearsAfter(new Date(request?.startedAt as string), deletionRequestRetentionYears).getTime() / 1000,
      ),
    );

    const items = await partition();
    // The state, its history, both inquiries in the person's partition and both inquiry mappings.
    expect(items.filter((item) => item.pk === `INQUIRY#${user.inquiryId}`)).toHaveLength(1);
    expect(items.filter((item) => item.pk === `INQUIRY#${secondInquiryId}`)).toHaveLength(1);
    expect(items.filter((item) => String(item.sk).startsWith('HISTORY#')).length).toBeGreaterThan(3);
    const until = Math.floor(
      yearsAfter(new Date(request?.startedAt as string), policyFacts.kycRetentionYears).getTime() / 1000,
    );
    expect(
      items.map((item) => [item.pk, item.sk, item.expiresAt]).filter(([, , at]) => at !== until),
    ).toEqual([]);
  });

  it('stays erased: a late Persona event and a reviewer change nothing, and the queue no longer lists the person', async () => {
    const before = await partition();
    await webhook('inquiry.declined', secondInquiryId);
    await webhook('inquiry.approved', user.inquiryId);
    const decided = await api(`/api/admin/verifications/${encodeURIComponent(user.userId)}/decision`, {
      method: 'POST',
      token: adminToken,
      body: { decision: 'rejected', reasonCode: 'document_unreadable', reason: 'after the erasure' },
    });
    expect(decided.status).toBe(404);
    const sortKey = (item: Record<string, unknown>) => `${item.pk}|${item.sk}`;
    expect((await partition()).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1))).toEqual(
      before.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1)),
    );
    expect(await queue()).not.toContain(user.userId);
  });
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document listing every route', async () => {
    const response = await fetch(`${stack.web}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const document = (await response.json()) as {
      openapi: string;
      info: { title: string };
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    for (const route of routes) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(route.id);
    }
  });
});

afterAll(() => {
  db.client.destroy();
});
