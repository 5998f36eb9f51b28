import { type EraseResult, eraseRequestedData } from '#lambdas/domain/data-rights/erase.ts';
import { buildEraseDeps } from './adapters.ts';
import type { EraseConfig } from './config.ts';

/** One erasure with freshly built adapters; what `npm run data:erase` and the stack test call. */
export async function runErase(
  config: EraseConfig,
  requestId: string,
  options: { dryRun?: boolean } = {},
): Promise<EraseResult> {
  const deps = buildEraseDeps(config);
  try {
    return await eraseRequestedData(deps)(requestId, options);
  } finally {
    deps.close();
  }
}

/** A person-readable account of the result, for the operator's terminal. */
export function describeResult(result: EraseResult): string {
  const lines: string[] = [];
  if (result.kind === 'already-completed') {
    lines.push(
      `Request ${result.requestId} was already completed at ${result.outcome.completedAt}; nothing done.`,
    );
  } else if (result.kind === 'dry-run') {
    lines.push(`Dry run for request ${result.requestId} (${result.email}); nothing was changed.`);
  } else {
    lines.push(`Request ${result.requestId} (${result.email}) completed at ${result.outcome.completedAt}.`);
  }
  const deleted = result.kind === 'dry-run' ? result.plan.deleted : result.outcome.deleted;
  const kept = result.kind === 'dry-run' ? result.plan.kept : result.outcome.kept;
  lines.push(result.kind === 'dry-run' ? 'Would delete or redact:' : 'Deleted or redacted:');
  if (deleted.length === 0) lines.push('  (nothing)');
  for (const entry of deleted) lines.push(`  ${entry.action} ${entry.store} ${entry.kind} ${entry.key}`);
  lines.push('Kept:');
  if (kept.length === 0) lines.push('  (nothing)');
  for (const entry of kept) {
    const count = entry.count === undefined ? '' : ` (${entry.count} records)`;
    const until = entry.retainUntil === undefined ? '' : ` Kept until ${entry.retainUntil}.`;
    lines.push(`  ${entry.store} ${entry.kind} ${entry.key}${count}: ${entry.reason}${until}`);
  }
  return lines.join('\n');
}
