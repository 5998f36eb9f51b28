import { buildWebForLocalRuns } from '#scripts/lib/web-build.ts';
import { adminQueueBudgets, callSummary } from './admin-queue.ts';
import { type ApiFigures, apiBudgets, measureApi } from './api.ts';
import { dynamoDbCallBudgets } from './dynamodb-calls.ts';
import { type LambdaFigures, lambdaBudgets, measureLambdas } from './lambda-bundles.ts';
import { breakdown } from './management-api.ts';
import { type Area, areas, fmt, machine, type Row, table, writeArea } from './report.ts';

// `npm run bench [-- --only web|lambdas|api|journey[,...]] [--runs=5] [--routes=/,/register]
// [--no-lighthouse] [--no-build] [--no-docs]`:
// measures issue 13's budgets (the API's restated by issue 22, ADR 0063), prints one table with pass/fail per budget and writes the figures
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
      // Against get-health's import measured beside this handler's (interleaved runs).
      const vsHealth = figure.importMs / figure.healthImportMs;
      const vsUnbundled = figure.unbundledImportMs / figure.importMs;
      return {
        area: 'lambdas',
        metric: `${figure.handler}: KB, import vs get-health beside it, unbundled vs bundled (ms: import, get-health, unbundled)`,
        measured: `${fmt(figure.bytes / 1000)} KB, ${fmt(vsHealth, 2)}x, ${fmt(vsUnbundled, 2)}x (${fmt(figure.importMs)} / ${fmt(figure.healthImportMs)} / ${fmt(figure.unbundledImportMs)} ms)`,
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
  const { noop, noopRoute, health, webhook, pushed, managementApi, putEvents } = figures;
  const healthVsNoopRoute = health.requestsPerSecond / noopRoute.requestsPerSecond;
  const healthVsNoop = health.requestsPerSecond / noop.requestsPerSecond;
  const cpuReference = health.cpuMicros + putEvents.cpuMicros;
  const webhookCpuRatio = webhook.cpuMicros / cpuReference;
  const clientOnlyRatio = webhook.cpuMicros / (health.cpuMicros + figures.putEventsClientCpuMicros);
  const p99VsOwnP50 = webhook.p99 / webhook.p50;
  const pushedRatio = pushed.p90 / webhook.p50;
  const onboarding = managementApi.onboarding;
  const perOnboarding = onboarding.calls / managementApi.onboardings;
  const perMe = managementApi.me.stats.calls / managementApi.me.requests;
  const perCheck = managementApi.statusChecks.stats.calls / managementApi.statusChecks.checks;
  const timed = figures.managementApiDuringTimedPhases;
  return [
    {
      area: 'api',
      metric: 'GET /api/health req/s vs an empty Lambda route behind the gateway (/__local/noop-route)',
      measured: `${fmt(healthVsNoopRoute, 2)}x (${fmt(health.requestsPerSecond, 0)} / ${fmt(noopRoute.requestsPerSecond, 0)} req/s, 10 connections)`,
      budget: `>= ${apiBudgets.healthVsNoopRoute}x`,
      pass:
        healthVsNoopRoute >= apiBudgets.healthVsNoopRoute &&
        health.non2xx === 0 &&
        noopRoute.non2xx === 0 &&
        noop.non2xx === 0,
    },
    {
      area: 'api',
      metric: 'GET /api/health req/s vs the bare no-op /__local/noop (reported; budget until issue 22)',
      measured: `${fmt(healthVsNoop, 2)}x (${fmt(health.requestsPerSecond, 0)} / ${fmt(noop.requestsPerSecond, 0)} req/s)`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: 'webhook acknowledgement CPU per request vs (GET /api/health + the signed PutEvents alone)',
      measured: `${fmt(webhookCpuRatio, 2)}x (${fmt(webhook.cpuMicros, 0)} / (${fmt(health.cpuMicros, 0)} + ${fmt(putEvents.cpuMicros, 0)}) µs)`,
      budget: `<= ${apiBudgets.webhookCpuVsHealthPlusPutEvents}x`,
      pass: webhookCpuRatio <= apiBudgets.webhookCpuVsHealthPlusPutEvents,
    },
    {
      area: 'api',
      metric: "CPU per request in the stack's process (reported)",
      measured: `no-op ${fmt(noop.cpuMicros, 0)} µs, no-op route ${fmt(noopRoute.cpuMicros, 0)} µs, health ${fmt(health.cpuMicros, 0)} µs, webhook ${fmt(webhook.cpuMicros, 0)} µs`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: 'the signed PutEvents alone in the stack process: caller + local bus, 10 in flight (reported)',
      measured: `${fmt(putEvents.cpuMicros, 0)} µs a call (rounds ${putEvents.cpuMicrosPerRound.map((value) => fmt(value, 0)).join(', ')}; ${fmt(putEvents.callsPerSecond, 0)} calls/s)`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric:
        "the signed PutEvents alone, its caller's CPU in the bench's process (reported: the issue's figure)",
      measured: `${fmt(figures.putEventsClientCpuMicros, 0)} µs a call; webhook vs (health + it) ${fmt(clientOnlyRatio, 2)}x`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: 'webhook acknowledgement under load: p99 vs its own p50 (10 connections, targets held)',
      measured: `${fmt(p99VsOwnP50, 2)}x (p99 ${fmt(webhook.p99, 2)} / p50 ${fmt(webhook.p50, 2)} ms, ${webhook.samples} events)`,
      budget: `<= ${apiBudgets.webhookP99VsOwnP50}x`,
      pass: p99VsOwnP50 <= apiBudgets.webhookP99VsOwnP50,
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
      metric: 'webhook p50, p99 vs GET /api/health p50 (reported; budgets until issue 22: 5x, 10x)',
      measured: `${fmt(webhook.p50 / health.p50, 2)}x, ${fmt(webhook.p99 / health.p50, 2)}x (health p50 ${fmt(health.p50, 2)} ms)`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: 'webhook acknowledgement with the targets in the same process (local only)',
      measured: `p50 ${fmt(figures.webhookColocated.p50, 2)} ms, p99 ${fmt(figures.webhookColocated.p99, 2)} ms, ${fmt(figures.webhookColocated.requestsPerSecond, 0)} req/s`,
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric:
        'decision pushed to an open status screen: p90 from the acknowledgement vs ack p50 (no polling)',
      measured: `${fmt(pushedRatio, 2)}x (p90 ${fmt(pushed.p90, 1)} ms, p50 ${fmt(pushed.p50, 1)} ms)`,
      budget: `<= ${apiBudgets.pushedP90VsWebhookP50}x`,
      pass: pushedRatio <= apiBudgets.pushedP90VsWebhookP50,
    },
    {
      area: 'api',
      metric: 'decisions pushed to the open status screen: arrived',
      measured: `${pushed.arrived} of ${pushed.sent}`,
      budget: 'all',
      pass: pushed.sent > 0 && pushed.arrived === pushed.sent,
    },
    {
      area: 'api',
      metric: `Management API calls per onboarded organization (registration -> approved, ${managementApi.onboardings} one after another)`,
      measured: `${fmt(perOnboarding, 2)} (${onboarding.calls} calls, ${onboarding.rateLimited} answered 429; ${managementApi.approved} of ${managementApi.onboardings} approved)`,
      budget: `<= ${apiBudgets.managementCallsPerOnboarding}`,
      pass:
        perOnboarding <= apiBudgets.managementCallsPerOnboarding &&
        managementApi.approved === managementApi.onboardings,
    },
    {
      area: 'api',
      metric: '  per organization, by operation (reported)',
      measured: breakdown(onboarding.byOperation, managementApi.onboardings),
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: '  per organization, by client (reported)',
      measured: breakdown(onboarding.byClient, managementApi.onboardings),
      budget: '-',
      pass: null,
    },
    {
      area: 'api',
      metric: 'Management API calls per GET /api/me; per status check (channel, GET /api/me, fresh token)',
      measured: `${fmt(perMe, 2)} (${managementApi.me.stats.calls} in ${managementApi.me.requests}); ${fmt(perCheck, 2)} (${managementApi.statusChecks.stats.calls} in ${managementApi.statusChecks.checks})`,
      budget: `${apiBudgets.managementCallsPerRead}; ${apiBudgets.managementCallsPerRead}`,
      pass: perMe <= apiBudgets.managementCallsPerRead && perCheck <= apiBudgets.managementCallsPerRead,
    },
    {
      area: 'api',
      metric: `Management API during the timed phases and their set-up (reported; plan ${managementApi.plan})`,
      measured: `${timed.calls} calls, ${timed.rateLimited} answered 429, peak ${timed.peakPerSecond}/s (${breakdown(timed.byOperation)})`,
      budget: '-',
      pass: null,
    },
    ...adminQueueRows(figures),
    ...(Object.keys(dynamoDbCallBudgets) as (keyof typeof dynamoDbCallBudgets)[]).map((key): Row => {
      const { request, chain } = figures.dynamoDbCalls[key];
      const chainCalls = chain.reduce((sum, entry) => sum + entry.calls.length, 0);
      return {
        area: 'api',
        metric: `DynamoDB calls per request: ${key}${key === 'me' ? ' (the profile item included)' : ''}`,
        measured: `${request.length} (${request.join(', ') || 'none'}); with its event targets ${chainCalls}`,
        budget: `<= ${dynamoDbCallBudgets[key]}`,
        pass: request.length <= dynamoDbCallBudgets[key],
      };
    }),
  ];
}

/** The admin queue with 1,000 verifications (ADR 0082): p50s against a page of 25 in the same run. */
function adminQueueRows({ adminQueue: queue }: ApiFigures): Row[] {
  const ratio = (of: { p50: number }) => of.p50 / queue.reference.p50;
  const page = (name: string, of: { p50: number; p90: number; items: number }, budget: number): Row => ({
    area: 'api',
    metric: `admin queue, ${queue.records} in review: ${name} p50 vs a page of ${queue.reference.items} with nothing behind it`,
    measured: `${fmt(ratio(of), 2)}x (${fmt(of.p50, 1)} / ${fmt(queue.reference.p50, 1)} ms; p90 ${fmt(of.p90, 1)} ms; ${of.items} items)`,
    budget: `<= ${budget}x`,
    pass: of.items > 0 && ratio(of) <= budget,
  });
  return [
    page('first page', queue.firstPage, adminQueueBudgets.pageVsReference),
    page('a page after 900', queue.deepPage, adminQueueBudgets.pageVsReference),
    page('search (organization or email)', queue.search, adminQueueBudgets.searchVsReference),
    {
      area: 'api',
      metric: 'admin queue DynamoDB calls: one page; one search over the 1,000 (reported)',
      measured: `${callSummary(queue.dynamoDbCalls.page)}; ${callSummary(queue.dynamoDbCalls.search)}`,
      budget: '-',
      pass: null,
    },
  ];
}

const needsBuild = selected.some((area) => area !== 'lambdas');
if (needsBuild && !args.has('no-build')) await buildWebForLocalRuns();

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
