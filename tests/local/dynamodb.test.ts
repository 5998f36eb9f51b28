import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoDbClient } from '#lambdas/adapters/dynamodb-client.ts';
import { StorageUnavailableError } from '#lambdas/domain/errors.ts';
import { localCredentials, type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The DynamoDB outage knob (ADR 0039): stopped, the product's own client gives up with the error
// the API answers 503 for; started again, every item written before the outage is there.

const fast = { connectionTimeoutMs: 300, requestTimeoutMs: 500, maxAttempts: 2 };
/** For the calls around the outage: a JVM on a busy machine may take a while to answer. */
const patient = { connectionTimeoutMs: 5_000, requestTimeoutMs: 10_000, maxAttempts: 3 };

describe.each([
  ['on disk (the process exits and restarts on the same files)', true],
  ['in memory (the process is frozen, then resumed)', false],
] as const)('DynamoDB Local %s', (_name, onDisk) => {
  let dynamodb: RunningDynamoDb;
  let dir: string;
  let db: DynamoDBDocumentClient;
  let during: DynamoDBDocumentClient;
  const saved = { ...process.env };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dynamodb-outage-'));
    dynamodb = await startDynamoDb({
      port: await freePort(),
      tablePrefix: 'outage-',
      ...(onDisk ? { dbPath: dir } : {}),
    });
    Object.assign(process.env, {
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint,
    });
    db = DynamoDBDocumentClient.from(createDynamoDbClient(patient));
    during = DynamoDBDocumentClient.from(createDynamoDbClient(fast));
  }, 60_000);

  afterAll(async () => {
    db?.destroy();
    during?.destroy();
    await dynamodb?.close();
    await rm(dir, { recursive: true, force: true });
    process.env = saved;
  });

  it('refuses to start a second DynamoDB Local on its port instead of using the running one', async () => {
    const port = Number(new URL(dynamodb.endpoint).port);
    await expect(startDynamoDb({ port, tablePrefix: 'leftover-' })).rejects.toThrow(
      `port ${port} is already in use`,
    );
  });

  it('refuses while stopped and keeps every item across the restart', async () => {
    const TableName = dynamodb.tableNames.submissions;
    const Key = { pk: 'OUTAGE#1', sk: 'ITEM' };
    await db.send(new PutCommand({ TableName, Item: { ...Key, note: 'before' } }));

    await dynamodb.stop();
    expect(dynamodb.stopped).toBe(true);
    await expect(during.send(new GetCommand({ TableName, Key }))).rejects.toBeInstanceOf(
      StorageUnavailableError,
    );

    await dynamodb.start();
    expect(dynamodb.stopped).toBe(false);
    const { Item } = await db.send(new GetCommand({ TableName, Key, ConsistentRead: true }));
    expect(Item).toMatchObject({ note: 'before' });
  }, 60_000);
});
