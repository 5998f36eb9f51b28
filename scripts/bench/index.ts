import { execFileSync } from 'node:child_process';
import { type ApiFigures, apiBudgets, measureApi } from './api.ts';
import { dynamoDbCallBudgets } from './dynamodb-calls.ts';
import { type LambdaFigures, lambdaBudgets, measureLambdas } from './lambda-bundles.ts';
import { type Area, areas, fmt, machine, type Row, table, writeArea } from './report.ts';

// `npm run bench [-- --only web|lambdas|api|journey[,...]] [--runs=5] [--routes=/,/register]
// [--no-lighthouse] [--no-build] [--no-docs]`:
// measures issue 13's budgets, prints one table with pass/fail per budget and writes the figures
// into docs/performance.md (one block per area). Every timing is a ratio to a reference measured
// in the same run; sizes and counts are absolute. Exit code 1 when a budget is missed.

const args = new Map(
  process.argv.slice(2).flatMap((arg, index, all) => {
    if (!arg.startsWith('--')) return [];
    const [key, value] = arg.slice(2).split('=');
    const next = all[index + 1];
    return [[key ?? '', value ?? (next && !next.startsWith('--') ? next : 'true')] as const];
  }),
);
const only = args.get('only')?.split(',') ?? areas;
for (const area of only)
  if (!areas.includes(area as Area)) throw new Error(`--only takes ${areas.join('|')}, got "${area}"`);
const selected = areas.filter((area) => only.includes(area));

function lambdaRows(figures: LambdaFigures): Row[] {
  const health = figures.handlers.find((figure) => figure.handler === 'get-health');
  if (!health) throw new Error('get-health was not measured');
  return [
    {
      area: 'lambdas',
      metric: `references: bare node process, get-health import (median of ${figures.runs})`,
      measured: `${fmt(figures.bareNodeMs)} ms, ${fmt(health.importMs)} ms`,
      budget: '-',
      pass: null,
    },
    ...figures.handlers.map((figure): Row => {
      const vsHealth = figure.importMs / health.importMs;
      const vsUnbundled = figure.unbundledImportMs / figure.importMs;
      return {
        area: 'lambdas',
        metric: `${figure.handler}: KB, import vs get-health, unbundled vs bundled`,
        measured: `${fmt(figure.bytes / 1000)} KB, ${fmt(vsHealth, 2)}x, ${fmt(vsUnbundled, 2)}x (${fmt(figure.importMs)} / ${fmt(figure.unbundledImportMs)} ms)`,
        budget: `<= ${lambdaBudgets.bundleBytes / 1000} KB, <= ${lambdaBudgets.importVsHealth}x, >= ${lambdaBudgets.unbundledVsBundled}x`,
        pass:
          figure.bytes <= lambdaBudgets.bundleBytes &&
          vsHealth <= lambdaBudgets.importVsHealth &&
          vsUnbundled >= lambdaBudgets.unbundledVsBundled,
      };
    }),
  ];
}

function apiRows(figures: ApiFigures): Row[] {
  const { noop, noopRoute, health, webhook, visible } = figures;
  const healthVsNoop = health.requestsPerSecond / noop.requestsPerSecond;
  const healthVsNoopRoute = health.requestsPerSecond / noopRoute.requestsPerSecond;
  const p50Ratio = webhook.p50 / health.p50;
  const p99Ratio = webhook.p99 / health.p50;
  const visibleRatio = visible.p90 / webhook.p50;
  return [
    {
      area: 'api',
      metric: 'gateway overhead: GET /api/health req/s vs the no-op (10 connections)',
      measured: `${fmt(healthVsNoop, 2)}x (${fmt(health.requestsPerSecond, 0)} / ${fmt(noop.requestsPerSecond, 0)} req/s)`,
      budget: `>= ${apiBudgets.healthVsNoop}x`,
      pass: healthVsNoop >= apiBudgets.healthVsNoop && health.non2xx === 0 && noop.non2xx === 0,
    },
    {
      area: 'api',
      metric: 'GET /api/health req/s vs an empty Lambda route behind the gateway (reported)',
      measured: `${fmt(healthVsNoopRoute, 2)}x (${fmt(health.requestsPerSecond, 0)} / ${fmt(noopRoute.requestsPerSecond, 0)} req/s)`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: 'webhook acknowledgement p50 vs GET /api/health p50',
      measured: `${fmt(p50Ratio, 2)}x (${fmt(webhook.p50, 2)} / ${fmt(health.p50, 2)} ms, ${webhook.samples} events)`,
      budget: `<= ${apiBudgets.webhookP50VsHealthP50}x`,
      pass: p50Ratio <= apiBudgets.webhookP50VsHealthP50,
    },
    {
      area: 'api',
      metric: 'webhook acknowledgement p99 vs GET /api/health p50',
      measured: `${fmt(p99Ratio, 2)}x (${fmt(webhook.p99, 2)} ms)`,
      budget: `<= ${apiBudgets.webhookP99VsHealthP50}x`,
      pass: p99Ratio <= apiBudgets.webhookP99VsHealthP50,
    },
    {
      area: 'api',
      metric: 'webhook acknowledgement non-2xx answers; events dead-lettered',
      measured: `${webhook.non2xx + figures.webhookColocated.non2xx}; ${figures.deadLetters}`,
      budget: '0; 0',
      pass: webhook.non2xx === 0 && figures.webhookColocated.non2xx === 0 && figures.deadLetters === 0,
    },
    {
      area: 'api',
      metric: "CPU per request in the stack's process (reported: the ratios above are CPU ratios)",
      measured: `no-op ${fmt(noop.cpuMicros, 0)} µs, health ${fmt(health.cpuMicros, 0)} µs, webhook ${fmt(webhook.cpuMicros, 0)} µs (${fmt(webhook.cpuMicros / health.cpuMicros, 1)}x health)`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: "the webhook's signed PutEvents alone: its caller's CPU per call (reported)",
      measured: `${fmt(figures.putEventsClientCpuMicros, 0)} µs (${fmt(figures.putEventsClientCpuMicros / health.cpuMicros, 1)}x a whole health request)`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: 'webhook acknowledgement with the targets in the same process (local only)',
      measured: `p50 ${fmt(figures.webhookColocated.p50, 2)} ms (${fmt(figures.webhookColocated.p50 / health.p50, 2)}x), p99 ${fmt(figures.webhookColocated.p99, 2)} ms, ${fmt(figures.webhookColocated.requestsPerSecond, 0)} req/s`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: 'webhook -> status visible (GET /api/me and app_metadata) p90 vs ack p50',
      measured: `${fmt(visibleRatio, 2)}x (p90 ${fmt(visible.p90, 0)} ms, p50 ${fmt(visible.p50, 0)} ms)`,
      budget: `<= ${apiBudgets.visibleP90VsWebhookP50}x`,
      pass: visibleRatio <= apiBudgets.visibleP90VsWebhookP50,
    },
    {
      area: 'api',
      metric: 'webhook -> status visible: events arrived',
      measured: `${visible.arrived} of ${visible.sent}`,
      budget: 'all',
      pass: visible.sent > 0 && visible.arrived === visible.sent,
    },
    ...(Object.keys(dynamoDbCallBudgets) as (keyof typeof dynamoDbCallBudgets)[]).map((key): Row => {
      const { request, chain } = figures.dynamoDbCalls[key];
      const chainCalls = chain.reduce((sum, entry) => sum + entry.calls.length, 0);
      return {
        area: 'api',
        metric: `DynamoDB calls per request: ${key}`,
        measured: `${request.length} (${request.join(', ') || 'none'}); with its event targets ${chainCalls}`,
        budget: `<= ${dynamoDbCallBudgets[key]}`,
        pass: request.length <= dynamoDbCallBudgets[key],
      };
    }),
  ];
}

const build = () => {
  console.log('building the web (production build, placeholders allowed locally)...');
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'],
    {
      env: { ...process.env, NODE_ENV: 'production', ALLOW_PLACEHOLDER_CONTENT: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
};

const needsBuild = selected.some((area) => area !== 'lambdas');
if (needsBuild && !args.has('no-build')) build();

const all: Row[] = [];
for (const area of selected) {
  const startedAt = new Date();
  const machineAtStart = machine();
  console.log(`\n== ${area} (${startedAt.toISOString()})`);
  let rows: Row[];
  switch (area) {
    case 'lambdas':
      rows = lambdaRows(await measureLambdas(Number(args.get('import-runs') ?? 15)));
      break;
    case 'api':
      rows = apiRows(await measureApi((line) => console.log(line)));
      break;
    case 'web': {
      const { measureWeb } = await import('./web.ts');
      const routes = args.get('routes')?.split(',');
      rows = await measureWeb({
        runs: Number(args.get('runs') ?? 5),
        lighthouse: !args.has('no-lighthouse'),
        ...(routes ? { routes } : {}),
        log: (line) => console.log(line),
      });
      break;
    }
    case 'journey': {
      const { measureJourney } = await import('./journey.ts');
      rows = await measureJourney((line) => console.log(line));
      break;
    }
  }
  console.log(table(rows));
  all.push(...rows);
  if (!args.has('no-docs'))
    await writeArea(area, rows, {
      started: `${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      machineAtStart,
      minutes: (Date.now() - startedAt.getTime()) / 60_000,
    });
}

const failed = all.some((row) => row.pass === false);
console.log(`\n${table(all)}`);
console.log(failed ? '\nSome budgets are missed (FAIL).' : '\nEvery budget is met.');
process.exitCode = failed ? 1 : 0;
