import { type ConsentPurpose, consentPurposes } from '#contracts/consent-documents.ts';
import type { Clock, ConsentLedger, ConsentRecord } from '#lambdas/domain/ports.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { type ChainBreak, canonicalJson, verifyChain } from './hash-chain.ts';

// What `npm run audit:consents` does, as functions: select records (a purpose between two dates,
// or one subject), verify each selected subject's whole chain, and render CSV or JSON.

export class AuditUsageError extends Error {}

export interface AuditQuery {
  purpose?: string;
  /** `YYYY-MM-DD` (start of that UTC day) or an ISO timestamp. */
  from?: string;
  /** `YYYY-MM-DD` (end of that UTC day, inclusive) or an ISO timestamp. */
  to?: string;
  user?: string;
}

export interface AuditReport {
  generatedAt: string;
  query: { purpose?: ConsentPurpose; from?: string; to?: string; user?: string };
  /** The selected records, oldest first. */
  records: ConsentRecord[];
  summary: {
    records: number;
    subjects: number;
    /** Records read to verify the full chains of the selected subjects. */
    chainRecords: number;
    brokenSubjects: number;
    breaks: number;
  };
  breaks: ChainBreak[];
  ok: boolean;
}

type LedgerReader = Pick<ConsentLedger, 'listBySubject' | 'listByPurpose'>;

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** Normalises a bound to the ledger's `recordedAt` form (`toISOString`), so string order is time order. */
export function boundary(value: string, edge: 'start' | 'end'): string {
  const text = value.trim();
  const iso = datePattern.test(text)
    ? `${text}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`
    : text;
  const time = new Date(iso);
  // `new Date('2026-02-30T00:00:00Z')` is invalid; a date-only value must also round-trip.
  if (Number.isNaN(time.getTime()) || (datePattern.test(text) && !time.toISOString().startsWith(text))) {
    throw new AuditUsageError(`Not a date: ${value} (use YYYY-MM-DD or an ISO 8601 timestamp).`);
  }
  return time.toISOString();
}

function parsePurpose(purpose: string | undefined): ConsentPurpose | undefined {
  if (purpose === undefined) return undefined;
  if (!(consentPurposes as readonly string[]).includes(purpose)) {
    throw new AuditUsageError(`Unknown purpose ${purpose} (one of ${consentPurposes.join(', ')}).`);
  }
  return purpose as ConsentPurpose;
}

export async function auditConsents(
  ledger: LedgerReader,
  query: AuditQuery,
  clock: Clock = systemClock,
): Promise<AuditReport> {
  const purpose = parsePurpose(query.purpose);
  const from = query.from === undefined ? undefined : boundary(query.from, 'start');
  const to = query.to === undefined ? undefined : boundary(query.to, 'end');
  if (from && to && from > to) throw new AuditUsageError('--from must not be after --to.');

  const chains = new Map<string, ConsentRecord[]>();
  let selected: ConsentRecord[];
  if (query.user !== undefined) {
    const all = await ledger.listBySubject(query.user);
    chains.set(query.user, all);
    selected = all.filter(
      (record) =>
        (purpose === undefined || record.purpose === purpose) &&
        (from === undefined || record.recordedAt >= from) &&
        (to === undefined || record.recordedAt <= to),
    );
  } else {
    if (!purpose || !from || !to) {
      throw new AuditUsageError('Give --purpose, --from and --to, or --user.');
    }
    selected = await ledger.listByPurpose(purpose, from, to);
  }

  // The whole chain of every subject in the selection: a record outside the range (or one whose
  // purpose or time was changed to move it out) still breaks the chain it belongs to.
  for (const subjectId of new Set(selected.map((record) => record.subjectId))) {
    if (!chains.has(subjectId)) chains.set(subjectId, await ledger.listBySubject(subjectId));
  }
  const chainRecords = [...chains.values()].flat();
  const verification = verifyChain(chainRecords);
  const brokenSubjects = new Set(verification.breaks.map((b) => b.subjectId)).size;

  const records = [...selected].sort(
    (a, b) =>
      compare(a.recordedAt, b.recordedAt) || compare(a.subjectId, b.subjectId) || a.sequence - b.sequence,
  );
  return {
    generatedAt: clock.now().toISOString(),
    query: {
      ...(purpose === undefined ? {} : { purpose }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(query.user === undefined ? {} : { user: query.user }),
    },
    records,
    summary: {
      records: records.length,
      subjects: chains.size,
      chainRecords: chainRecords.length,
      brokenSubjects,
      breaks: verification.breaks.length,
    },
    breaks: verification.breaks,
    ok: verification.ok,
  };
}

/** Code-unit order, independent of the auditor's locale. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Column order of the CSV export; `statements` holds the record's statements as canonical JSON. */
export const csvColumns = [
  'subjectId',
  'sequence',
  'consentId',
  'issuer',
  'purpose',
  'action',
  'statements',
  'documentVersion',
  'documentSha256',
  'locale',
  'method',
  'recordedAt',
  'requestId',
  'userAgent',
  'ipAddress',
  'previousHash',
  'hash',
] as const;

/**
 * First characters a spreadsheet reads as the start of a formula (csv-stringify's `escape_formulas`
 * list: `=`, `+`, `-`, `@`, tab, CR, and the full-width `=`, `+`, `-`, `@`).
 */
const formulaStarts = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/**
 * One CSV cell. A value a spreadsheet would run as a formula (a user agent of `=HYPERLINK(...)`) is
 * prefixed with a single quote, as csv-stringify's `escape_formulas` does: the auditor sees the text,
 * and drops that quote before recomputing a hash (ADR 0071). Then RFC 4180: a field holding a
 * comma, quote, CR or LF is quoted, its quotes doubled.
 */
export function csvField(raw: string): string {
  const value = formulaStarts.has(raw.charAt(0)) ? `'${raw}` : raw;
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return canonicalJson(value);
  return String(value);
}

/** Header line and one line per record, CRLF-terminated (RFC 4180); objects as canonical JSON. */
export function csvTable(records: readonly object[], columns: readonly string[]): string {
  const lines = [columns.join(',')];
  for (const record of records) {
    const values = record as Record<string, unknown>;
    lines.push(columns.map((column) => csvField(cell(values[column]))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function toCsv(records: readonly ConsentRecord[]): string {
  return csvTable(records, csvColumns);
}

export function toJson(report: AuditReport): string {
  return `${JSON.stringify(
    {
      generatedAt: report.generatedAt,
      query: report.query,
      ok: report.ok,
      summary: report.summary,
      breaks: report.breaks,
      records: report.records,
    },
    null,
    2,
  )}\n`;
}

/** Human-readable summary and every break, for the terminal. */
export function formatSummary(report: AuditReport): string {
  const { summary } = report;
  const lines = [
    `Exported ${summary.records} record(s); verified ${summary.subjects} subject chain(s) ` +
      `(${summary.chainRecords} record(s) in full).`,
  ];
  if (report.ok) {
    lines.push('All chains intact.');
  } else {
    lines.push(`BROKEN: ${summary.breaks} break(s) in ${summary.brokenSubjects} chain(s):`);
    for (const b of report.breaks) lines.push(`  ${b.subjectId} #${b.sequence} [${b.kind}] ${b.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
