import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataExport } from '#contracts/data-export.ts';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycAdminQueue } from '#lambdas/adapters/dynamodb-kyc-admin-queue.ts';
import { DynamoDbKycStateReader, kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { historySk } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { DynamoDbUserProfiles } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import { exportMyData } from '#lambdas/domain/data-rights/export-my-data.ts';
import { AccountNotFoundError, RateLimitedError } from '#lambdas/domain/errors.ts';
import { signedInWriteLimits } from '#lambdas/domain/signed-in-limits.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { sampleEntry } from '#tests/lambdas/domain/fakes.ts';

// GET /api/me/export's use case (ADR 0076) on the real stores, against DynamoDB Local with the
// tables of lambdas/tables.ts: everything held about the caller, nobody else's.

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let now = new Date();
const clock = { now: () => now };
const ISSUER = 'https://tenant.example/';

function stores() {
  const t = dynamodb.tableNames;
  return {
    profiles: new DynamoDbUserProfiles(client, t.submissions),
    registrations: new DynamoDbRegistrationStore(client, t.submissions),
    ledger: new DynamoDbConsentLedger(client, t.consentLedger),
    kyc: new DynamoDbKycStateReader(client, t.kycState),
    kycHistory: new DynamoDbKycAdminQueue(client, t.kycState),
    submissions: new DynamoDbSubmissionStore(client, t.submissions),
    limiter: new DynamoDbRateLimiter(client, t.submissions, clock),
  };
}
const exporter = () => exportMyData({ ...stores(), clock });
const caller = (userId: string, email: string): Caller => ({
  userId,
  issuer: ISSUER,
  role: 'user',
  emailVerified: true,
  claims: { email },
});

async function seedPerson(userId: string, email: string) {
  const s = stores();
  await s.registrations.saveRegistrationOnce({
    userId,
    email,
    responsibleName: `Name of ${userId}`,
    responsibleTitle: 'CTO',
    responsiblePhone: '+49 30 1234567',
    organizationName: `Org of ${userId}`,
    organizationUrl: 'https://org.example',
    organizationType: 'commercial',
    createdAt: '2026-10-30T08:00:00.000Z',
  });
  await s.profiles.saveAccount({
    userId,
    email,
    name: `Name of ${userId}`,
    organizationName: `Org of ${userId}`,
    organizationType: 'commercial',
  });
  await s.ledger.append(
    sampleEntry({
      subjectId: userId,
      issuer: ISSUER,
      purpose: 'terms_of_service',
      documentVersion: '2025-06-08',
    }),
  );
  await s.ledger.append(sampleEntry({ subjectId: userId, issuer: ISSUER }));
  await s.submissions.addOnce({ kind: 'waitlist', email, createdAt: '2026-10-01T00:00:00.000Z' });
  const t = dynamodb.tableNames.kycState;
  await client.send(
    new PutCommand({
      TableName: t,
      Item: {
        ...kycStateKey(userId),
        status: 'approved',
        updatedAt: '2026-11-03T10:00:00.000Z',
        inquiryId: 'inq_1',
        attempt: 1,
        reasonCode: null,
      },
    }),
  );
  for (const [at, from, to, by] of [
    ['2026-11-02T09:00:00.000Z', 'not_started', 'pending', 'user'],
    ['2026-11-03T10:00:00.000Z', 'pending', 'approved', 'admin'],
  ] as const) {
    await client.send(
      new PutCommand({
        TableName: t,
        Item: {
          pk: kycStateKey(userId).pk,
          sk: historySk(at, 1),
          from,
          to,
          by,
          actorId: 'auth0|reviewer',
          reason: 'looks fine',
          reasonCode: null,
          action: 'status_changed',
          at,
        },
      }),
    );
  }
}

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'export-' });
  client = localDocumentClient(dynamodb.endpoint);
  await seedPerson('auth0|ada', 'ada@helix.example');
  await seedPerson('auth0|bob', 'bob@other.example');
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

describe('exporting my data (GDPR Art. 15 and 20)', () => {
  it("holds the caller's profile, registration, consents with their text versions, KYC history and submissions, and no one else's", async () => {
    now = new Date('2026-11-27T12:00:00.000Z');
    const document = await exporter()(caller('auth0|ada', 'ada@helix.example'));
    expect(dataExport.safeParse(document).success).toBe(true);
    expect(document).toMatchObject({
      format: 'platform-personal-data-export',
      version: 1,
      generatedAt: '2026-11-27T12:00:00.000Z',
      profile: { userId: 'auth0|ada', email: 'ada@helix.example', name: 'Name of auth0|ada' },
      organization: { name: 'Org of auth0|ada', type: 'commercial', url: 'https://org.example' },
      registration: { responsibleName: 'Name of auth0|ada', registeredAt: '2026-10-30T08:00:00.000Z' },
      kyc: { status: 'approved', attempts: 1 },
    });
    expect(document.consents.map((c) => [c.purpose, c.documentVersion])).toEqual([
      ['terms_of_service', '2025-06-08'],
      ['identity_verification', '2026-11-01'],
    ]);
    expect(document.kyc.history).toEqual([
      {
        from: 'not_started',
        to: 'pending',
        by: 'user',
        action: 'status_changed',
        reasonCode: null,
        at: '2026-11-02T09:00:00.000Z',
      },
      {
        from: 'pending',
        to: 'approved',
        by: 'admin',
        action: 'status_changed',
        reasonCode: null,
        at: '2026-11-03T10:00:00.000Z',
      },
    ]);
    // The waitlist entry; the profile and registration items are shown under their own headings.
    expect(document.submissions).toEqual([
      { kind: 'waitlist', createdAt: '2026-10-01T00:00:00.000Z', fields: { email: 'ada@helix.example' } },
    ]);
    const text = JSON.stringify(document);
    expect(text).not.toContain('bob');
    // The reviewer is another person; the ledger's network details are not the person's request.
    expect(text).not.toContain('auth0|reviewer');
    expect(text).not.toContain('looks fine');
    expect(text).not.toContain('203.0.113.0');
  });

  it('answers 5 a day, then 429 until the window passes', async () => {
    now = new Date('2026-11-28T12:00:00.000Z');
    const bob = caller('auth0|bob', 'bob@other.example');
    const { limit } = signedInWriteLimits['data-export'];
    expect(limit).toBe(5);
    for (let i = 0; i < limit; i++) await exporter()(bob);
    const refused = await exporter()(bob).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    now = new Date('2026-11-29T12:00:01.000Z');
    await expect(exporter()(bob)).resolves.toMatchObject({ profile: { userId: 'auth0|bob' } });
  });

  it('refuses an account the product erased', async () => {
    await stores().profiles.markErased('auth0|gone', Math.floor(Date.now() / 1000) + 3600);
    await expect(exporter()(caller('auth0|gone', 'gone@x.example'))).rejects.toBeInstanceOf(
      AccountNotFoundError,
    );
  });
});
