import { writeFile } from 'node:fs/promises';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import {
  adminTrailCsv,
  adminTrailJson,
  auditAdminTrail,
  formatAdminSummary,
} from '#lambdas/domain/admin-audit/audit.ts';
import { AuditUsageError } from '#lambdas/domain/consent/audit.ts';
import { tables } from '#lambdas/tables.ts';
import { type AuditOutputOptions, openAuditTable, parseAuditArgs } from '../lib/audit-table.ts';

// The admin trail's audit command, as importable functions (the tests call `main`).

export const usage = `Usage: npm run audit:admin -- --from DATE --to DATE [--format csv|json] [--out FILE]
       [--table NAME | --stack .local/stack.json]

  --from/--to  YYYY-MM-DD (whole UTC days, inclusive) or ISO 8601 timestamps
  --format     csv (default) or json
  --out        write the export to FILE instead of standard output
  --table      the trail's table (default: $${tables.adminAuditLog.envVar})
  --stack      read the endpoint and table name from the local stack description

Exports the period's entries and verifies the chain from the entry before the period to the head;
the summary (standard error) names the head, to compare with the next audit's.
Exit status: 0 the chain is intact, 1 it is broken, 2 usage or access error.`;

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

type Options = Partial<Record<'from' | 'to', string>> & AuditOutputOptions;

function parseOptions(argv: string[]): Options {
  const { selected, output } = parseAuditArgs(argv, ['from', 'to'] as const);
  return { ...selected, ...output };
}

/** Runs the audit; resolves to the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  try {
    const options = parseOptions(argv);
    const { client, tableName } = await openAuditTable(options, io.env, tables.adminAuditLog);
    try {
      const report = await auditAdminTrail(new DynamoDbAdminAuditLog(client, tableName), options);
      const output = options.format === 'json' ? adminTrailJson(report) : adminTrailCsv(report.records);
      if (options.out) await writeFile(options.out, output, 'utf8');
      else io.stdout(output);
      // The summary goes to stderr so that stdout stays a clean CSV/JSON stream.
      io.stderr(`Table ${tableName}\n${formatAdminSummary(report)}`);
      return report.ok ? 0 : 1;
    } finally {
      client.destroy();
    }
  } catch (error) {
    if (error instanceof AuditUsageError) io.stderr(`${error.message}\n\n${usage}\n`);
    else io.stderr(`Audit failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}
