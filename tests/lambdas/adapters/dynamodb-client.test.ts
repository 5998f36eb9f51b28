import { createServer, type Server, type Socket } from 'node:net';
import { ConditionalCheckFailedException, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDynamoDbClient, isStorageOutage } from '#lambdas/adapters/dynamodb-client.ts';
import { StorageUnavailableError } from '#lambdas/domain/errors.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The one DynamoDB client against real failing endpoints (no SDK mock): a stopped DynamoDB (the
// port refuses), a frozen one (connections accepted, never answered) and one answering 500. Each
// call must end, within a bounded time, in the one error the HTTP layer answers 503 + Retry-After.

const fast = { connectionTimeoutMs: 300, requestTimeoutMs: 400, maxAttempts: 2 };
let servers: Server[] = [];
let sockets: Socket[] = [];
const saved = { ...process.env };

beforeEach(() => {
  Object.assign(process.env, {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'x',
  });
});
afterEach(async () => {
  process.env = { ...saved };
  for (const socket of sockets) socket.destroy();
  sockets = [];
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

async function listen(onConnection: (socket: Socket) => void): Promise<string> {
  const server = createServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

async function outcome(endpoint: string) {
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint;
  const client = DynamoDBDocumentClient.from(createDynamoDbClient(fast));
  const started = Date.now();
  try {
    await client.send(new PutCommand({ TableName: 't', Item: { pk: 'a' } }));
    return { error: undefined, ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  } finally {
    client.destroy();
  }
}

describe('a DynamoDB outage becomes StorageUnavailableError', () => {
  it('when the port refuses connections (DynamoDB stopped)', async () => {
    const { error } = await outcome(`http://127.0.0.1:${await freePort()}`);
    expect(error).toBeInstanceOf(StorageUnavailableError);
  });

  it('when connections are accepted and never answered (DynamoDB frozen), within the bounded timeouts', async () => {
    const { error, ms } = await outcome(await listen(() => {}));
    expect(error).toBeInstanceOf(StorageUnavailableError);
    // 2 attempts of 400 ms plus backoff; without a request timeout the call would wait forever.
    expect(ms).toBeLessThan(10_000);
  });

  it('when DynamoDB answers 500 on every attempt', async () => {
    const endpoint = await listen((socket) => {
      socket.once('data', () => {
        const body = JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
          message: 'x',
        });
        socket.end(
          `HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      });
    });
    const { error } = await outcome(endpoint);
    expect(error).toBeInstanceOf(StorageUnavailableError);
  });
});

describe('what is not an outage stays what it is', () => {
  it('keeps a refused condition and a bad request as they are', () => {
    const condition = new ConditionalCheckFailedException({
      message: 'no',
      $metadata: { httpStatusCode: 400 },
    });
    expect(isStorageOutage(condition)).toBe(false);
    const validation = Object.assign(new Error('bad'), { name: 'ValidationException', $fault: 'client' });
    expect(isStorageOutage(validation)).toBe(false);
  });

  it('lets a healthy answer through', async () => {
    const endpoint = await listen((socket) => {
      socket.once('data', () => {
        const body = JSON.stringify({ TableNames: [] });
        socket.end(
          `HTTP/1.1 200 OK\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      });
    });
    process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint;
    const client = createDynamoDbClient(fast);
    await expect(client.send(new ListTablesCommand({}))).resolves.toMatchObject({ TableNames: [] });
    client.destroy();
  });
});
