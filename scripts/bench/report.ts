import { readFile, writeFile } from 'node:fs/promises';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

// One table for every budget of `npm run bench`, and the figures written into docs/performance.md:
// each area (`--only` value) owns a block between `<!-- bench:AREA -->` and `<!-- /bench:AREA -->`,
// replaced whenever that area runs, so a partial run leaves the other areas' last figures alone.

export type Area = 'lambdas' | 'web' | 'api' | 'journey';
export const areas: Area[] = ['lambdas', 'api', 'web', 'journey'];

export interface Row {
  area: Area;
  metric: string;
  measured: string;
  budget: string;
  /** null: reported, no budget. A figure that could not be measured (NaN) is a miss. */
  pass: boolean | null;
}

export const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const ratio = (value: number, reference: number) => value / reference;

export function table(rows: Row[]): string {
  const header = ['area', 'metric', 'measured', 'budget', 'result'];
  const cells = rows.map((row) => [
    row.area,
    row.metric,
    row.measured,
    row.budget,
    row.pass === null ? '-' : row.pass ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((cell) => (cell[column] ?? '').length)),
  );
  const line = (cell: string[]) => cell.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} free), Node ${process.version}, ${process.platform}/${process.arch}, load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;
}

const docFile = fileURLToPath(new URL('../../docs/performance.md', import.meta.url));

/** Replaces (or appends) `area`'s block in docs/performance.md. */
export async function writeArea(
  area: Area,
  rows: Row[],
  notes: { started: string; machineAtStart: string; minutes: number },
) {
  const doc = await readFile(docFile, 'utf8');
  const begin = `<!-- bench:${area} -->`;
  const end = `<!-- /bench:${area} -->`;
  const passed = rows.every((row) => row.pass !== false);
  const block = [
    begin,
    `Measured ${notes.started} in ${notes.minutes.toFixed(1)} min (re-measure with \`npm run bench -- --only ${area}\`): ${passed ? 'every budget met' : 'some budgets missed'}.`,
    `Machine at the start: ${notes.machineAtStart}.`,
    `Machine at the end: ${machine()}.`,
    '',
    '```',
    table(rows),
    '```',
    end,
  ].join('\n');
  const at = doc.indexOf(begin);
  const until = doc.indexOf(end);
  const next =
    at >= 0 && until > at
      ? `${doc.slice(0, at)}${block}${doc.slice(until + end.length)}`
      : `${doc.trimEnd()}\n\n${block}\n`;
  await writeFile(docFile, next);
}
