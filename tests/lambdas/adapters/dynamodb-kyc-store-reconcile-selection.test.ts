import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { KycStatus } from '#contracts/kyc.ts';
import { kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The reconciliation's selection (ADR 0038) against DynamoDB Local with the real byStatus index:
// undecided (pending, or not_started with an inquiry) and unchanged since before the cutoff,
// newest first, at most the cap, in a bounded number of reads.

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let kyc: DynamoDbKycStore;
let queries = 0;

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'reconcile-' });
  client = localDocumentClient(dynamodb.endpoint);
  client.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === 'QueryCommand') queries += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countQueries' },
  );
  kyc = new DynamoDbKycStore(client, dynamodb.tableNames.kycState);

  const put = (userId: string, status: KycStatus, hour: number, extra: Record<string, unknown> = {}) =>
    client.send(
      new PutCommand({
        TableName: dynamodb.tableNames.kycState,
        Item: {
          ...kycStateKey(userId),
          kind: 'kyc_state',
          userId,
          status,
          queueStatus: status,
          updatedAt: new Date(Date.UTC(2026, 10, 21, hour)).toISOString(),
          inquiryId: `inq_${userId}`,
          referenceId: userId,
          version: 2,
          ...extra,
        },
      }),
    );
  await Promise.all([
    put('pending-old', 'pending', 1),
    put('pending-older', 'pending', 0),
    put('started-old', 'not_started', 2),
    put('pending-new', 'pending', 11),
    put('started-new', 'not_started', 11),
    put('approved-old', 'approved', 1),
    put('rejected-old', 'rejected', 1),
    // Past its retention for the store (its clock runs two days ahead below), not yet for DynamoDB
    // Local, whose TTL sweeper would otherwise delete it at some point of the run.
    put('expired-old', 'pending', 3, { expiresAt: Math.floor(Date.now() / 1000) + 24 * 60 * 60 }),
    put('no-inquiry-old', 'not_started', 4, { inquiryId: undefined }),
  ]);
  // The index is updated after the put answers (as in AWS): wait until it holds every undecided
  // item, those the selection drops included (the expired one, the one without an inquiry), so the
  // read counts below measure the selection, not an index still catching up on a loaded machine.
  const indexed = async () => {
    let count = 0;
    for (const status of ['pending', 'not_started']) {
      const answer = await client.send(
        new QueryCommand({
          TableName: dynamodb.tableNames.kycState,
          IndexName: 'byStatus',
          KeyConditionExpression: 'queueStatus = :status',
          ExpressionAttributeValues: { ':status': status },
          Select: 'COUNT',
        }),
      );
      count += answer.Count ?? 0;
    }
    return count;
  };
  for (let tries = 0; (await indexed()) < 7 && tries < 200; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await indexed()).toBe(7);
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 24 * 60 * 60 * 1000 });
}, 60_000);

afterAll(async () => {
  vi.useRealTimers();
  client?.destroy();
  await dynamodb?.close();
});

const cutoff = new Date(Date.UTC(2026, 10, 21, 10)).toISOString();

it('lists undecided users with an inquiry, unchanged since before the cutoff, newest first', async () => {
  const users = (await kyc.listUndecidedBefore(cutoff, 50)).map((record) => record.userId);
  expect(users).toEqual(['started-old', 'pending-old', 'pending-older']);
});

it('stops at the cap, keeping the newest, reading a page more only past items the filter drops', async () => {
  queries = 0;
  const users = (await kyc.listUndecidedBefore(cutoff, 2)).map((record) => record.userId);
  expect(users).toEqual(['started-old', 'pending-old']);
  // pending: a page of 2 holding the expired user (dropped on read), then one more; not_started: a
  // page holding the user without an inquiry (dropped by the filter), then one more.
  expect(queries).toBe(4);
});
