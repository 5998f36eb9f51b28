import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machine } from '#scripts/bench/report.ts';
import { buildWebForLocalRuns } from '#scripts/lib/web-build.ts';
import { formatReport, type LoadReport, runOnboardingLoad } from './onboarding.ts';
import { loadPorts, spawnLoadStack } from './stack.ts';

// `npm run test:load [-- --organizations 1000 --concurrency 200 --ramp-seconds 10 --no-docs --no-build]`: issue 22,
// item 5 (ADR 0062). Starts its own local stack with the identity provider at Auth0's Free plan,
// drives the organizations through the API (scripts/load/onboarding.ts), prints the report and
// writes it into docs/reliability.md (between the load markers). Exits 1 when a check fails.

const { values } = parseArgs({
  options: {
    organizations: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '200' },
    'ramp-seconds': { type: 'string', default: '10' },
    'no-docs': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const organizations = Number(values.organizations);
const concurrency = Number(values.concurrency);
if (!(organizations > 0 && concurrency > 0)) {
  console.error('--organizations and --concurrency must be positive numbers');
  process.exit(2);
}

if (!values['no-build'] || !existsSync('web/dist/index.html')) await buildWebForLocalRuns();

const startedAt = new Date();
const machineAtStart = machine();
const stack = await spawnLoadStack(loadPorts(), { echo: values.verbose });
// Stopped early (Ctrl-C, a timeout): the stack goes too.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void stack.stop().finally(() => process.exit(130)));
let report: LoadReport;
try {
  report = await runOnboardingLoad(stack.info, {
    organizations,
    concurrency,
    rampSeconds: Number(values['ramp-seconds']),
    managementApiSample: 20,
    log: (line) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`),
  });
} finally {
  await stack.stop();
}
const text = formatReport(report);
console.log(`\n${text}`);

await mkdir('.local', { recursive: true });
await writeFile('.local/load-report.json', `${JSON.stringify({ startedAt, report }, null, 2)}\n`);

if (!values['no-docs']) {
  const docFile = fileURLToPath(new URL('../../docs/reliability.md', import.meta.url));
  const begin = '<!-- load-run:begin (written by npm run test:load) -->';
  const end = '<!-- load-run:end -->';
  const block = [
    begin,
    `Last \`npm run test:load\`: started ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} minutes.`,
    `Machine at the start: ${machineAtStart}.`,
    `Machine at the end: ${machine()}.`,
    '',
    '```',
    text,
    '```',
    end,
  ].join('\n');
  const doc = await readFile(docFile, 'utf8');
  const at = doc.indexOf(begin);
  const until = doc.indexOf(end);
  await writeFile(
    docFile,
    at >= 0 && until > at
      ? `${doc.slice(0, at)}${block}${doc.slice(until + end.length)}`
      : `${doc.trimEnd()}\n\n${block}\n`,
  );
  console.log('written into docs/reliability.md');
}
process.exit(report.pass ? 0 : 1);
