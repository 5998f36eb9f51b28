import { AuditUsageError, boundary, csvTable } from '../consent/audit.ts';
import { type ChainBreak, retentionAttribute, verifyChain } from '../consent/hash-chain.ts';
import type { Clock } from '../ports.ts';
import { systemClock } from '../ports.ts';
import { type AdminAuditEntry, type AdminAuditLog, adminAuditChain } from './trail.ts';

// What `npm run audit:admin` does (ADR 0078): the entries of a period, and the verification of the
// chain from the entry before the first of them to the head. An entry whose time was changed to
// move it out of the period is still in that stretch and breaks it; an entry deleted, inserted or
// changed anywhere after the period's start does too. The head (sequence and hash) is reported, so
// the next audit can see that the chain was not cut back to an earlier point.

export interface AdminAuditQuery {
  from: string;
  to: string;
}

export interface AdminAuditReport {
  generatedAt: string;
  query: { from: string; to: string };
  /** The period's entries, oldest first. */
  records: AdminAuditEntry[];
  summary: {
    records: number;
    /** Entries read to verify: from the one before the period to the head. */
    chainRecords: number;
    /** The first sequence verified; null when the period has no entry. */
    verifiedFrom: number | null;
    head: { sequence: number; hash: string } | null;
    breaks: number;
  };
  breaks: ChainBreak[];
  ok: boolean;
}

type TrailReader = Pick<AdminAuditLog, 'listByTime' | 'listFrom'>;

/**
 * DynamoDB deletes an expired item within days, not at once: when the entry before the period
 * was due to expire this long before the first one, its absence is its expiry, not a deletion.
 */
const expiryGraceSeconds = 31 * 24 * 60 * 60;

export async function auditAdminTrail(
  trail: TrailReader,
  query: Partial<AdminAuditQuery>,
  clock: Clock = systemClock,
): Promise<AdminAuditReport> {
  if (query.from === undefined || query.to === undefined) throw new AuditUsageError('Give --from and --to.');
  const from = boundary(query.from, 'start');
  const to = boundary(query.to, 'end');
  if (from > to) throw new AuditUsageError('--from must not be after --to.');

  const records = (await trail.listByTime(from, to)).sort((a, b) => a.sequence - b.sequence);
  let chain: AdminAuditEntry[] = [];
  let breaks: ChainBreak[] = [];
  let verifiedFrom: number | null = null;
  if (records.length > 0) {
    const first = records[0] as AdminAuditEntry & { [retentionAttribute]?: number };
    verifiedFrom = Math.max(1, first.sequence - 1);
    chain = await trail.listFrom(verifiedFrom);
    breaks = verifyChain(chain, { chainKey: 'chain', from: verifiedFrom }).breaks;
    const predecessorExpired =
      typeof first.expiresAt === 'number' &&
      first.expiresAt - expiryGraceSeconds <= Math.floor(clock.now().getTime() / 1000);
    if (predecessorExpired && !chain.some((entry) => entry.sequence === verifiedFrom)) {
      // The entry before is gone with its retention: verify from the first of the period instead.
      verifiedFrom = first.sequence;
      breaks = verifyChain(chain, { chainKey: 'chain', from: verifiedFrom }).breaks;
    }
  }
  const last = chain.at(-1);
  return {
    generatedAt: clock.now().toISOString(),
    query: { from, to },
    records,
    summary: {
      records: records.length,
      chainRecords: chain.length,
      verifiedFrom,
      head: last ? { sequence: last.sequence, hash: last.hash } : null,
      breaks: breaks.length,
    },
    breaks,
    ok: breaks.length === 0,
  };
}

/** Column order of the CSV export; `details` holds the entry's details as canonical JSON. */
export const adminCsvColumns = [
  'chain',
  'sequence',
  'entryId',
  'recordedAt',
  'actorType',
  'actorId',
  'action',
  'targetType',
  'targetId',
  'reasonCode',
  'reason',
  'details',
  'requestId',
  'previousHash',
  'hash',
] as const;

export function adminTrailCsv(records: readonly AdminAuditEntry[]): string {
  return csvTable(records, adminCsvColumns);
}

export function adminTrailJson(report: AdminAuditReport): string {
  const { generatedAt, query, ok, summary, breaks, records } = report;
  return `${JSON.stringify({ chain: adminAuditChain, generatedAt, query, ok, summary, breaks, records }, null, 2)}\n`;
}

export function formatAdminSummary(report: AdminAuditReport): string {
  const { summary } = report;
  const lines = [
    summary.verifiedFrom === null
      ? `Exported 0 entries: none between ${report.query.from} and ${report.query.to}.`
      : `Exported ${summary.records} entr${summary.records === 1 ? 'y' : 'ies'}; verified the chain from ` +
        `#${summary.verifiedFrom} to the head (${summary.chainRecords} entries).`,
  ];
  if (summary.head) lines.push(`Head: #${summary.head.sequence} ${summary.head.hash}`);
  if (report.ok) lines.push(summary.verifiedFrom === null ? 'Nothing to verify.' : 'Chain intact.');
  else {
    lines.push(`BROKEN: ${summary.breaks} break(s):`);
    for (const b of report.breaks) lines.push(`  #${b.sequence} [${b.kind}] ${b.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
