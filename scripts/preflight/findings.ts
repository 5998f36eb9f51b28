import type { StageConfig } from '#infra/stage-config.ts';

// A finding of the preflight and the report the command prints.

/**
 * ok; missing (the deploy or the stage would fail: the command exits 1); warning (the deploy can go
 * ahead, but something waits on someone else, e.g. AWS granting SES production access: exit 0);
 * later (created by the first deploy, to do after it); note.
 */
export type FindingStatus = 'ok' | 'missing' | 'warning' | 'later' | 'note';
export interface Finding {
  check: string;
  status: FindingStatus;
  detail: string;
  /** What to do, for missing, warning and later findings. */
  fix?: string;
}

/** The stage's stacks, as infra/platform.ts names them. */
export const dataStackName = (config: StageConfig) => `Platform-${config.stage}-Data`;
export const siteStackName = (config: StageConfig) => `Platform-${config.stage}-Site`;

/** What went wrong in a port call, for the finding: the SDK's error name and message. */
export const describeError = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

const labels: Record<FindingStatus, string> = {
  ok: 'ok',
  missing: 'MISSING',
  warning: 'WARNING',
  later: 'later',
  note: 'note',
};

/** The command's exit status: 1 when any finding is missing; warnings alone do not fail it. */
export const exitStatus = (findings: Finding[]) => (findings.some((f) => f.status === 'missing') ? 1 : 0);

/** The report the command prints. */
export function formatFindings(config: StageConfig, findings: Finding[]): string {
  const lines = [`Preflight of stage ${config.stage} (${config.account ?? 'any account'}, ${config.region})`];
  for (const finding of findings) {
    lines.push(`  ${labels[finding.status].padEnd(8)}${finding.check}: ${finding.detail}`);
    if (finding.fix) for (const line of finding.fix.split('\n')) lines.push(`${' '.repeat(10)}${line}`);
  }
  const missing = findings.filter((f) => f.status === 'missing').length;
  const later = findings.filter((f) => f.status === 'later').length;
  const warnings = findings.filter((f) => f.status === 'warning').length;
  lines.push(
    missing > 0
      ? `${missing} thing(s) missing: fix them and run the preflight again.`
      : later > 0
        ? 'Ready for the first deploy; run the preflight again after it for the steps marked "later".'
        : 'Nothing missing.',
  );
  if (missing === 0 && warnings > 0)
    lines.push(`${warnings} warning(s): the deploy can go ahead; do what they say when you can.`);
  return lines.join('\n');
}
