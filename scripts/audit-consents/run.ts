import { writeFile } from 'node:fs/promises';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import {
  type AuditQuery,
  type AuditReport,
  AuditUsageError,
  auditConsents,
  formatSummary,
  toCsv,
  toJson,
} from '#lambdas/domain/consent/audit.ts';
import { tables } from '#lambdas/tables.ts';
import { openAuditTable, parseAuditArgs } from '../lib/audit-table.ts';

// The consent audit's command line, as importable functions: parse options, find the table and
// endpoint, run the audit, write the export. `scripts/audit-consents.ts` only calls `main`.

export const usage = `Usage: npm run audit:consents -- (--purpose P --from DATE --to DATE | --user SUB)
       [--format csv|json] [--out FILE] [--table NAME | --stack .local/stack.json]

  --purpose  identity_verification, terms_of_service, privacy_policy or non_harmful_use
  --from/--to  YYYY-MM-DD (whole UTC days, inclusive) or ISO 8601 timestamps
  --user     one subject (token sub): all its records, narrowed by --purpose/--from/--to if given
  --format   csv (default) or json
  --out      write the export to FILE instead of standard output
  --table    the ledger table (default: $${tables.consentLedger.envVar})
  --stack    read the endpoint and table name from the local stack description

The endpoint comes from the AWS SDK's configuration (AWS_ENDPOINT_URL_DYNAMODB, AWS_REGION, profile).
Exit status: 0 all chains intact, 1 a chain is broken, 2 usage or access error.`;

export interface AuditOptions {
  query: AuditQuery;
  format: 'csv' | 'json';
  out?: string;
  table?: string;
  stack?: string;
}

export function parseOptions(argv: string[]): AuditOptions {
  const { selected, output } = parseAuditArgs(argv, ['purpose', 'from', 'to', 'user'] as const);
  return { query: selected, ...output };
}

/** A read-only view of the ledger: the audit only ever queries. */
export async function openLedger(
  options: Pick<AuditOptions, 'table' | 'stack'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ ledger: DynamoDbConsentLedger; tableName: string; close(): void }> {
  const { client, tableName } = await openAuditTable(options, env, tables.consentLedger);
  return { ledger: new DynamoDbConsentLedger(client, tableName), tableName, close: () => client.destroy() };
}

export function render(report: AuditReport, format: 'csv' | 'json'): string {
  return format === 'json' ? toJson(report) : toCsv(report.records);
}

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** Runs the audit; resolves to the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  let options: AuditOptions;
  try {
    options = parseOptions(argv);
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${usage}\n`);
    return 2;
  }
  try {
    const { ledger, tableName, close } = await openLedger(options, io.env);
    try {
      const report = await auditConsents(ledger, options.query);
      const output = render(report, options.format);
      if (options.out) await writeFile(options.out, output, 'utf8');
      else io.stdout(output);
      // The summary goes to stderr so that stdout stays a clean CSV/JSON stream.
      io.stderr(`Table ${tableName}\n${formatSummary(report)}`);
      return report.ok ? 0 : 1;
    } finally {
      close();
    }
  } catch (error) {
    if (error instanceof AuditUsageError) {
      io.stderr(`${error.message}\n\n${usage}\n`);
    } else {
      io.stderr(`Audit failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 2;
  }
}
