import { type DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbRetention } from '#lambdas/adapters/dynamodb-retention.ts';
import { auditConsents } from '#lambdas/domain/consent/audit.ts';
import { listMyConsents } from '#lambdas/domain/consent/list-my-consents.ts';
import { retentionDates } from '#lambdas/domain/data-rights/erasure-plan.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { sampleEntry } from '#tests/lambdas/domain/fakes.ts';

// Retention against DynamoDB Local with the tables of lambdas/tables.ts: the operator's step
// sets `expiresAt` on what an erasure keeps, and every read leaves out what is past it (DynamoDB
// Local never deletes expired items, and DynamoDB deletes them only eventually).

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let retention: DynamoDbRetention;
let now = new Date('2026-04-01T09:00:00.000Z');
const clock = { now: () => now };
let ledger: DynamoDbConsentLedger;
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
const window = { purpose: 'identity_verification', from: '2026-01-01', to: '2026-12-31' };

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'retention-' });
  client = localDocumentClient(dynamodb.endpoint);
  ledger = new DynamoDbConsentLedger(client, dynamodb.tableNames.consentLedger, { clock });
  retention = new DynamoDbRetention(client, dynamodb.tableNames);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

async function stored(subjectId: string) {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: dynamodb.tableNames.consentLedger,
      KeyConditionExpression: 'subjectId = :s',
      ExpressionAttributeValues: { ':s': subjectId },
      ConsistentRead: true,
    }),
  );
  return Items;
}

describe('the consent ledger past its retention', () => {
  const ended = new Date('2026-04-01T09:00:00.000Z');
  const until = retentionDates(ended).consentLedger;

  beforeAll(async () => {
    now = new Date('2026-03-01T08:00:00.000Z');
    for (const subjectId of ['auth0|ended', 'auth0|ended', 'auth0|ended', 'auth0|current', 'auth0|current'])
      await ledger.append(sampleEntry({ subjectId }));
    now = ended;
    await retention.expireConsentRecords('auth0|ended', epoch(until));
  });

  it('sets the expiry on every record of the subject only, and the chain still verifies', async () => {
    expect((await stored('auth0|ended')).map((item) => item.expiresAt)).toEqual([
      epoch(until),
      epoch(until),
      epoch(until),
    ]);
    expect((await stored('auth0|current')).every((item) => item.expiresAt === undefined)).toBe(true);
    now = new Date('2030-01-01T00:00:00.000Z');
    const report = await auditConsents(ledger, { user: 'auth0|ended' }, clock);
    expect(report).toMatchObject({ ok: true, summary: { records: 3 } });
  });

  it('does not extend an expiry already set when the step runs again', async () => {
    await retention.expireConsentRecords('auth0|ended', epoch(until) + 86_400);
    expect((await stored('auth0|ended')).map((item) => item.expiresAt)).toEqual([
      epoch(until),
      epoch(until),
      epoch(until),
    ]);
  });

  it('leaves expired records out of the subject reads, GET /api/me/consents and the audit, which stays intact', async () => {
    now = new Date(until.getTime() + 1000);
    expect(await ledger.listBySubject('auth0|ended')).toEqual([]);
    expect(await listMyConsents({ ledger })({ userId: 'auth0|ended', issuer: sampleEntry().issuer })).toEqual(
      [],
    );
    const report = await auditConsents(ledger, window, clock);
    expect(new Set(report.records.map((record) => record.subjectId))).toEqual(new Set(['auth0|current']));
    expect(report).toMatchObject({ ok: true, summary: { subjects: 1, records: 2 } });
    // The items are still there until DynamoDB's TTL removes them.
    expect(await stored('auth0|ended')).toHaveLength(3);
  });

  it('reports a chain whose older records alone expired as broken: a partial expiry is not retention', async () => {
    now = new Date('2026-03-01T08:00:00.000Z');
    for (let i = 0; i < 3; i += 1) await ledger.append(sampleEntry({ subjectId: 'auth0|tampered' }));
    await client.send(
      new UpdateCommand({
        TableName: dynamodb.tableNames.consentLedger,
        Key: { subjectId: 'auth0|tampered', sequence: 1 },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': epoch(now) - 1 },
      }),
    );
    const report = await auditConsents(ledger, { user: 'auth0|tampered' }, clock);
    expect(report.ok).toBe(false);
    expect(report.breaks).toContainEqual(
      expect.objectContaining({ subjectId: 'auth0|tampered', sequence: 1, kind: 'missing_sequence' }),
    );
  });

  it('gives a record appended after the relationship ended the same expiry as the others', async () => {
    now = new Date('2026-04-01T09:05:00.000Z');
    const late = await ledger.append(sampleEntry({ subjectId: 'auth0|ended' }));
    expect(late).toMatchObject({ sequence: 4, expiresAt: epoch(until) });
    const report = await auditConsents(ledger, { user: 'auth0|ended' }, clock);
    expect(report).toMatchObject({ ok: true, summary: { records: 4 } });
  });
});

describe('KYC state past its retention', () => {
  const kycTable = () => dynamodb.tableNames.kycState;
  const put = (item: Record<string, unknown>) =>
    client.send(new PutCommand({ TableName: kycTable(), Item: item }));
  const items = async (pk: string) =>
    (
      await client.send(
        new QueryCommand({
          TableName: kycTable(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [];

  async function seed(userId: string, inquiryId: string) {
    await put({
      pk: `USER#${userId}`,
      sk: 'STATE',
      status: 'approved',
      updatedAt: '2026-03-01T00:00:00.000Z',
      inquiryId,
    });
    await put({
      pk: `USER#${userId}`,
      sk: 'HISTORY#2026-03-01T00:00:00.000Z#1',
      from: 'pending',
      to: 'approved',
    });
    await put({ pk: `INQUIRY#${inquiryId}`, sk: 'INQUIRY', userId, referenceId: userId });
  }

  it('sets the expiry on the state, the history and the inquiry of the user, and nothing else', async () => {
    await seed('auth0|kyc-ended', 'inq_ended');
    await seed('auth0|kyc-current', 'inq_current');
    const until = retentionDates(new Date()).kycState;
    await retention.expireKycRecords('auth0|kyc-ended', ['inq_ended'], epoch(until));
    const expiries = [...(await items('USER#auth0|kyc-ended')), ...(await items('INQUIRY#inq_ended'))].map(
      (item) => item.expiresAt,
    );
    expect(expiries).toEqual([epoch(until), epoch(until), epoch(until)]);
    const untouched = [...(await items('USER#auth0|kyc-current')), ...(await items('INQUIRY#inq_current'))];
    expect(untouched.every((item) => item.expiresAt === undefined)).toBe(true);
    const reader = new DynamoDbKycStateReader(client, kycTable());
    expect(await reader.getState('auth0|kyc-ended')).toMatchObject({ status: 'approved' });
  });

  it('reads a state past its expiry as no state', async () => {
    await seed('auth0|kyc-expired', 'inq_expired');
    await retention.expireKycRecords('auth0|kyc-expired', ['inq_expired'], epoch(new Date()) - 1);
    const reader = new DynamoDbKycStateReader(client, kycTable());
    expect(await reader.getState('auth0|kyc-expired')).toBeUndefined();
    expect(await reader.getState('auth0|kyc-current')).toMatchObject({ status: 'approved' });
  });
});
