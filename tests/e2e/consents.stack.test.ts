import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consentDocuments, documentSha256 } from '#contracts/consent-documents.ts';
import { problemTypes } from '#contracts/problem.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { auditConsents, toCsv, toJson } from '#lambdas/domain/consent/audit.ts';
import { recordHash, verifyChain } from '#lambdas/domain/consent/hash-chain.ts';
import type { ConsentRecord } from '#lambdas/domain/ports.ts';
import { main } from '#scripts/audit-consents/run.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { createTestUser, type TestUser } from '#tests/helpers/tokens.ts';

// POST /api/consents and GET /api/me/consents through the local gateway and its JWT authorizer,
// into DynamoDB Local; then the auditor's view of the same table.

const stack = inject('stack');
const db = stackDb(stack);
const table = db.tableName('ConsentLedger');

const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36';
const grant = {
  identity_verification_consent: true,
  biometric_data_consent: true,
  privacy_policy_consent: true,
  consent_type: 'identity_verification',
};

/** Through the site's origin, as a browser calls it; the client claims another address twice over. */
function postConsent(token: string | undefined, body: unknown, origin = stack.web) {
  return fetch(`${origin}/api/consents`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': chromeOnWindows,
      'x-forwarded-for': '203.0.113.77',
      'x-viewer-ip': '203.0.113.77',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function ledgerOf(subjectId: string): Promise<ConsentRecord[]> {
  const result = await db.client.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'subjectId = :s',
      ExpressionAttributeValues: { ':s': subjectId },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []) as ConsentRecord[];
}

const ledgerSize = async () => (await db.scan('ConsentLedger')).length;

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  [alice, bob] = await Promise.all([createTestUser(stack), createTestUser(stack)]);
});

describe('POST /api/consents', () => {
  it('answers 201 and stores a record with every field, minimised, on the caller chain', async () => {
    const response = await postConsent(alice.token, { ...grant, user_id: alice.userId });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { success: true; consentId: string; recordedAt: string };
    expect(body).toEqual({ success: true, consentId: expect.any(String), recordedAt: expect.any(String) });

    const [record, ...others] = await ledgerOf(alice.userId);
    expect(others).toEqual([]);
    const document = consentDocuments.identity_verification;
    expect(record).toEqual({
      subjectId: alice.userId,
      issuer: stack.idp.issuer,
      purpose: 'identity_verification',
      action: 'granted',
      statements: {
        identity_verification_consent: true,
        biometric_data_consent: true,
        privacy_policy_consent: true,
      },
      documentVersion: document.version,
      documentSha256: await documentSha256(document),
      locale: 'en',
      method: 'consent_dialog',
      recordedAt: body.recordedAt,
      requestId: expect.stringMatching(/.+/),
      userAgent: 'Chrome 120 (Windows)',
      // The client's real address as the edge saw it (loopback here), minimised to its /24: not
      // the edge's own address, and not what the client wrote in X-Forwarded-For.
      ipAddress: '127.0.0.0',
      consentId: body.consentId,
      sequence: 1,
      previousHash: null,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(record?.hash).toBe(recordHash(record ?? {}));
    expect(Date.parse(body.recordedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('links a second consent to the first', async () => {
    const response = await postConsent(alice.token, { ...grant, locale: 'de' });
    expect(response.status).toBe(201);
    const [first, second] = await ledgerOf(alice.userId);
    expect(second).toMatchObject({ sequence: 2, locale: 'de', previousHash: first?.hash });
    expect(verifyChain(await ledgerOf(alice.userId)).ok).toBe(true);
  });

  it('answers 403 to a body user_id of another user and writes nothing', async () => {
    const before = await ledgerSize();
    const response = await postConsent(bob.token, { ...grant, user_id: alice.userId });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { type: string }).type).toBe(problemTypes.forbidden);
    expect(await ledgerSize()).toBe(before);
    expect(await ledgerOf(bob.userId)).toEqual([]);
  });

  it('answers 401 without a token and writes nothing', async () => {
    const before = await ledgerSize();
    expect((await postConsent(undefined, grant)).status).toBe(401);
    expect(await ledgerSize()).toBe(before);
  });

  it('refuses a direct call to the API origin, forged viewer headers and all, and writes nothing', async () => {
    const before = await ledgerSize();
    const response = await postConsent(bob.token, grant, stack.api);
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { type: string }).type).toBe(problemTypes.originNotVerified);
    expect(await ledgerSize()).toBe(before);
    expect(await ledgerOf(bob.userId)).toEqual([]);
  });

  it.each([
    [{ ...grant, app_metadata: { role: 'admin' } }, 'app_metadata', 'This field is not allowed.'],
    [
      { ...grant, biometric_data_consent: false },
      'biometric_data_consent',
      'You must consent to the processing of biometric data',
    ],
    [{ ...grant, consent_type: 'marketing' }, 'consent_type', 'Unknown consent type'],
  ])('answers 400 to %j and writes nothing', async (body, field, message) => {
    const before = await ledgerSize();
    const response = await postConsent(bob.token, body);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { type: string; errors: unknown[] };
    expect(problem.type).toBe(problemTypes.validation);
    expect(problem.errors).toContainEqual({ field, message });
    expect(await ledgerSize()).toBe(before);
  });

  it('answers 409 to a document version that is not the current one and writes nothing', async () => {
    const before = await ledgerSize();
    const response = await postConsent(bob.token, { ...grant, document_version: '2020-01-01' });
    expect(response.status).toBe(409);
    const problem = (await response.json()) as { type: string; detail: string };
    expect(problem.type).toBe(problemTypes.consentDocumentChanged);
    expect(problem.detail).toContain(consentDocuments.identity_verification.version);
    expect(await ledgerSize()).toBe(before);
  });

  it('keeps one intact chain under 10 concurrent consents by one user', async () => {
    const carol = await createTestUser(stack);
    const responses = await Promise.all(Array.from({ length: 10 }, () => postConsent(carol.token, grant)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    const records = await ledgerOf(carol.userId);
    expect(records.map((record) => record.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(verifyChain(records)).toMatchObject({ ok: true, records: 10 });
  });
});

describe('GET /api/me/consents', () => {
  it("returns only the caller's records, without IP address or user agent", async () => {
    await postConsent(bob.token, grant);
    const response = await fetch(`${stack.web}/api/me/consents`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(200);
    const { records } = (await response.json()) as { records: Record<string, unknown>[] };
    const stored = await ledgerOf(alice.userId);
    expect(records.map((record) => record.consentId)).toEqual(stored.map((record) => record.consentId));
    expect(records[0]).toEqual({
      consentId: stored[0]?.consentId,
      purpose: 'identity_verification',
      action: 'granted',
      statements: stored[0]?.statements,
      documentVersion: stored[0]?.documentVersion,
      documentSha256: stored[0]?.documentSha256,
      locale: 'en',
      method: 'consent_dialog',
      recordedAt: stored[0]?.recordedAt,
      sequence: 1,
      hash: stored[0]?.hash,
      previousHash: null,
    });
  });

  it('answers 401 without a token', async () => {
    expect((await fetch(`${stack.web}/api/me/consents`)).status).toBe(401);
  });
});

describe('the consent audit', () => {
  const ledger = new DynamoDbConsentLedger(db.client, table);
  const window = () => ({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 3_600_000).toISOString(),
  });
  let dir: string;
  let dave: TestUser;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'consent-audit-'));
    dave = await createTestUser(stack);
    for (let i = 0; i < 3; i += 1) expect((await postConsent(dave.token, grant)).status).toBe(201);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exports a purpose between two times as CSV and JSON with every chain intact', async () => {
    const report = await auditConsents(ledger, { purpose: 'identity_verification', ...window() });
    const daves = (await ledgerOf(dave.userId)).map((record) => record.consentId);
    expect(report.records.map((record) => record.consentId)).toEqual(expect.arrayContaining(daves));
    expect(report.ok).toBe(true);
    const csv = toCsv(report.records);
    for (const consentId of daves) expect(csv).toContain(`,${consentId},`);
    expect(JSON.parse(toJson(report)).records).toHaveLength(report.records.length);
  });

  it('reports a chain break after a stored record was changed, and the CLI exits non-zero', async () => {
    // The tamperer has full access; the application roles cannot update at all.
    await db.client.send(
      new UpdateCommand({
        TableName: table,
        Key: { subjectId: dave.userId, sequence: 2 },
        UpdateExpression: 'SET ipAddress = :ip',
        ExpressionAttributeValues: { ':ip': '198.51.100.0' },
      }),
    );
    const report = await auditConsents(ledger, { purpose: 'identity_verification', ...window() });
    expect(report.ok).toBe(false);
    expect(report.breaks).toContainEqual(
      expect.objectContaining({ subjectId: dave.userId, sequence: 2, kind: 'hash_mismatch' }),
    );

    const stackFile = join(dir, 'stack.json');
    const out = join(dir, 'audit.json');
    await writeFile(stackFile, JSON.stringify({ dynamodb: stack.dynamodb }));
    let stderr = '';
    const status = await main(
      ['--user', dave.userId, '--format', 'json', '--out', out, '--stack', stackFile],
      {
        stdout: () => {},
        stderr: (text) => {
          stderr += text;
        },
        env: process.env,
      },
    );
    expect(status).toBe(1);
    expect(stderr).toContain(`${dave.userId} #2 [hash_mismatch]`);
    const exported = JSON.parse(await readFile(out, 'utf8'));
    expect(exported).toMatchObject({ ok: false, summary: { records: 3, breaks: 1 } });
  });
});
