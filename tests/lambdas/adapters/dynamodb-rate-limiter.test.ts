import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRateLimiter, rateLimitKey } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The per-subject limiter against DynamoDB Local: N actions a window, never more, even when the
// requests arrive at the same moment (every step is a conditional write).

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let nowMs = Date.parse('2026-11-21T07:00:00.000Z');
let limiter: DynamoDbRateLimiter;
const day = 24 * 3600;

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'rate-limit-' });
  client = localDocumentClient(dynamodb.endpoint);
  limiter = new DynamoDbRateLimiter(client, dynamodb.tableNames.submissions, { now: () => new Date(nowMs) });
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

describe('DynamoDbRateLimiter', () => {
  it('allows 3 a window, then refuses with the time left, and opens a new window when it ends', async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.acquire('email', 'subject-a', day, 3));
    expect(results.slice(0, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    expect(results[3]).toEqual({ allowed: false, retryAfterSeconds: day });
    nowMs += day * 1000;
    expect(await limiter.acquire('email', 'subject-a', day, 3)).toEqual({ allowed: true });
  });

  it('never allows more than the limit to concurrent requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => limiter.acquire('email', 'subject-b', day, 3)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(3);
  });

  it('takes back an action given back (release), never below none, and never in a closed window', async () => {
    expect(await limiter.acquire('verification', 'subject-e', 60)).toEqual({ allowed: true });
    await limiter.release('verification', 'subject-e');
    await limiter.release('verification', 'subject-e');
    // Given back once: one more, not two.
    expect(await limiter.acquire('verification', 'subject-e', 60)).toEqual({ allowed: true });
    expect((await limiter.acquire('verification', 'subject-e', 60)).allowed).toBe(false);
    // A subject without a window: nothing to give back, nothing written that would let one in.
    await limiter.release('verification', 'subject-f');
    expect(await limiter.acquire('verification', 'subject-f', 60)).toEqual({ allowed: true });
    expect((await limiter.acquire('verification', 'subject-f', 60)).allowed).toBe(false);

    expect(await limiter.acquire('email', 'subject-g', day, 2)).toEqual({ allowed: true });
    expect(await limiter.acquire('email', 'subject-g', day, 2)).toEqual({ allowed: true });
    await limiter.release('email', 'subject-g');
    expect(await limiter.acquire('email', 'subject-g', day, 2)).toEqual({ allowed: true });
    expect((await limiter.acquire('email', 'subject-g', day, 2)).allowed).toBe(false);
  });

  it('keeps one a window by default, and counts a window written before `used` existed as full', async () => {
    expect(await limiter.acquire('verification', 'subject-c', 60)).toEqual({ allowed: true });
    expect((await limiter.acquire('verification', 'subject-c', 60)).allowed).toBe(false);
    await client.send(
      new PutCommand({
        TableName: dynamodb.tableNames.submissions,
        Item: { ...rateLimitKey('email', 'subject-d'), kind: 'rate-limit', resetAtMs: nowMs + 60_000 },
      }),
    );
    expect((await limiter.acquire('email', 'subject-d', day, 3)).allowed).toBe(false);
  });
});
