import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AuditUsageError } from '#lambdas/domain/consent/audit.ts';
import type { TableDef } from '#lambdas/tables.ts';

/**
 * The table an audit command reads, and a client for it: `--table NAME` or the table's environment
 * variable in AWS (the endpoint and credentials from the SDK's configuration), or `--stack FILE`
 * for the local stack (its DynamoDB Local endpoint and table names).
 */
export async function openAuditTable(
  options: { table?: string; stack?: string },
  env: NodeJS.ProcessEnv,
  def: Pick<TableDef, 'envVar' | 'logicalName'>,
): Promise<{ client: DynamoDBDocumentClient; tableName: string }> {
  const config: DynamoDBClientConfig = {};
  let tableName = options.table ?? env[def.envVar];
  if (options.stack) {
    const stack = JSON.parse(await readFile(options.stack, 'utf8')) as {
      dynamodb?: { endpoint?: string; tables?: Record<string, string> };
    };
    const endpoint = stack.dynamodb?.endpoint;
    if (!endpoint) throw new AuditUsageError(`${options.stack} has no dynamodb.endpoint.`);
    config.endpoint = endpoint;
    // DynamoDB Local accepts any credentials; the stack does not need real ones.
    config.region = env.AWS_REGION ?? 'eu-central-1';
    config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    tableName = options.table ?? stack.dynamodb?.tables?.[def.logicalName] ?? tableName;
  }
  if (!tableName) throw new AuditUsageError(`No table: give --table, --stack or set ${def.envVar}.`);
  return { client: DynamoDBDocumentClient.from(new DynamoDBClient(config)), tableName };
}

/** The options every audit command shares besides its own selection. */
export interface AuditOutputOptions {
  format: 'csv' | 'json';
  out?: string;
  table?: string;
  stack?: string;
}

/**
 * An audit command's arguments: its own string options (`selection`) and the shared `--format`,
 * `--out`, `--table`, `--stack`; an unknown option or format is an `AuditUsageError`.
 */
export function parseAuditArgs<Key extends string>(
  argv: string[],
  selection: readonly Key[],
): { selected: Partial<Record<Key, string>>; output: AuditOutputOptions } {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(
        [...selection, 'format', 'out', 'table', 'stack'].map((name) => [name, { type: 'string' as const }]),
      ),
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    throw new AuditUsageError(error instanceof Error ? error.message : String(error));
  }
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new AuditUsageError(`Unknown format ${format}.`);
  const selected: Partial<Record<Key, string>> = {};
  for (const key of selection) {
    const value = values[key];
    if (value !== undefined) selected[key] = value;
  }
  const output: AuditOutputOptions = { format };
  for (const key of ['out', 'table', 'stack'] as const) {
    const value = values[key];
    if (value !== undefined) output[key] = value;
  }
  return { selected, output };
}
