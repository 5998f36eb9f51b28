import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// What applying a Persona event reads (`readForEvent`), against DynamoDB Local: the user's state
// and the event's processed marker, in one strongly consistent BatchGetItem.

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let kyc: DynamoDbKycStore;
const calls: string[] = [];

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'event-read-' });
  client = localDocumentClient(dynamodb.endpoint);
  client.middlewareStack.add(
    (next, context) => (args) => {
      calls.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'countCalls' },
  );
  kyc = new DynamoDbKycStore(client, dynamodb.tableNames.kycState);
  // Starting DynamoDB Local (a JVM) takes seconds, more on a busy machine: as every other file allows.
}, 60_000);

afterAll(async () => {
  await dynamodb?.close();
});

beforeEach(() => {
  calls.length = 0;
});

const at = '2026-11-21T07:00:00.000Z';

it("reads the user's state and the event's marker in one call, before and after the event is applied", async () => {
  const userId = 'auth0|event-read-1';
  expect(
    await kyc.recordInquiry({
      userId,
      inquiryId: 'inq_read_1',
      referenceId: userId,
      expectedVersion: null,
      at,
    }),
  ).toBe('saved');
  calls.length = 0;

  const before = await kyc.readForEvent(userId, 'evt_read_1', new Date(at));
  expect(before).toEqual({
    record: expect.objectContaining({ userId, status: 'not_started', inquiryId: 'inq_read_1' }),
    expiring: false,
    processed: false,
  });
  expect(calls).toEqual(['BatchGetItemCommand']);

  const applied = await kyc.applyChange({
    userId,
    expectedVersion: before.record?.version ?? 0,
    eventId: 'evt_read_1',
    eventAt: '2026-11-21T06:59:00.000000Z',
    requireNewerEvent: true,
    inquiryId: 'inq_read_1',
    previousStatus: 'not_started',
    status: 'approved',
    decidedBy: 'persona',
    actorId: 'persona',
    reason: 'inquiry.approved',
    reasonCode: null,
    at,
  });
  expect(applied.outcome).toBe('applied');

  const after = await kyc.readForEvent(userId, 'evt_read_1', new Date(at));
  expect(after).toMatchObject({ record: { status: 'approved' }, processed: true });
  // The marker is kept 45 days: a day later still processed, 46 days later it counts as gone.
  const day = 24 * 60 * 60 * 1000;
  expect((await kyc.readForEvent(userId, 'evt_read_1', new Date(Date.parse(at) + day))).processed).toBe(true);
  expect((await kyc.readForEvent(userId, 'evt_read_1', new Date(Date.parse(at) + 46 * day))).processed).toBe(
    false,
  );
});

it('reads no state for an unknown user, and flags a state an erasure has given a deadline', async () => {
  expect(await kyc.readForEvent('auth0|nobody', 'evt_read_2', new Date(at))).toEqual({
    record: undefined,
    expiring: false,
    processed: false,
  });

  const userId = 'auth0|event-read-2';
  await kyc.recordInquiry({
    userId,
    inquiryId: 'inq_read_2',
    referenceId: userId,
    expectedVersion: null,
    at,
  });
  await client.send(
    new UpdateCommand({
      TableName: dynamodb.tableNames.kycState,
      Key: kycStateKey(userId),
      UpdateExpression: 'SET expiresAt = :at',
      ExpressionAttributeValues: { ':at': Math.floor(Date.parse(at) / 1000) + 3600 },
    }),
  );
  expect(await kyc.readForEvent(userId, 'evt_read_2', new Date(at))).toMatchObject({
    record: { inquiryId: 'inq_read_2' },
    expiring: true,
  });
});
