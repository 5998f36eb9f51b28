import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import autocannon from 'autocannon';
import { originVerifyHeader } from '#lambdas/http/edge.ts';
import { localCredentials } from '#local/dynamodb.ts';
import { signatureHeader } from '#local/persona/webhooks.ts';
import { defaultPorts, type LocalPorts } from '#local/ports.ts';
import type { StackInfo } from '#local/stack.ts';
import { spawnStack } from '#local/stack-process.ts';
import { type EnrolledUser, enrolledUsers, personaEvent, webApi } from '#tests/helpers/persona-webhooks.ts';
import { managementToken } from '#tests/helpers/tokens.ts';
import { type CallsPerRequest, measureDynamoDbCalls } from './dynamodb-calls.ts';
import { median, percentile } from './stats.ts';

// Issue 13's API budgets, every timing a ratio to a reference measured in the same run on a local
// stack started for the purpose (production web build, bench ports: the defaults + 20000 +
// STACK_PORT_OFFSET):
//   - gateway overhead: autocannon, 10 connections, GET /api/health reaches >= 0.5x the requests/s
//     of the gateway's no-op (`GET /__local/noop`, answered before any route matching, event or
//     handler); health against the no-op route (`GET /__local/noop-route`, an empty Lambda behind
//     the same route emulation: what the handler wrapper alone costs) is reported beside it;
//   - webhook acknowledgement: autocannon, 10 connections, signed events with unique ids: p50 <= 5x
//     GET /api/health's p50 (same tool, same connections), p99 <= 10x, no non-2xx; the bus's
//     targets are held during each round and run after it (in AWS they are other functions; here
//     they would share this process and its 2 cores), and the co-located figure is reported too;
//   - webhook -> status visible: 100 status changes, one at a time: time until GET /api/me and the
//     identity provider's app_metadata both show it; p90 <= 10x the acknowledgement's p50, all arrive;
//   - DynamoDB calls per request (scripts/bench/dynamodb-calls.ts).
// Reported beside them, to explain the two timing ratios: the stack process's CPU per request of
// each load (from /proc/<pid>/stat), and the CPU the webhook's signed PutEvents costs its caller
// alone (the same SDK client, from the bench's own process, against the same local bus).

export const apiBudgets = {
  healthVsNoop: 0.5,
  webhookP50VsHealthP50: 5,
  webhookP99VsHealthP50: 10,
  visibleP90VsWebhookP50: 10,
};

const connections = 10;

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  samples: number;
  non2xx: number;
  /** The stack process's CPU (every thread) per answered request, in µs; NaN without /proc. */
  cpuMicros: number;
}

export interface ApiFigures {
  noop: LoadFigures;
  /** `GET /__local/noop-route`: an empty Lambda behind the gateway's whole route emulation. */
  noopRoute: LoadFigures;
  health: LoadFigures;
  webhook: LoadFigures;
  /** The same load with the targets applying each event in the gateway's process meanwhile. */
  webhookColocated: LoadFigures;
  /** Events that exhausted their retries during the run (every one must have been applied). */
  deadLetters: number;
  visible: { p50: number; p90: number; arrived: number; sent: number };
  dynamoDbCalls: CallsPerRequest;
  /** CPU per signed PutEvents of one event (as the webhook sends it), in the caller, µs. */
  putEventsClientCpuMicros: number;
}

export function benchPorts(offset = Number(process.env.STACK_PORT_OFFSET ?? 0)): LocalPorts {
  return Object.fromEntries(
    Object.entries(defaultPorts).map(([key, port]) => [key, port + 20_000 + offset]),
  ) as unknown as LocalPorts;
}

/** A process's CPU time so far (user + system, every thread) in µs; NaN where /proc is missing. */
function cpuMicrosOf(pid: number | undefined): number {
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

/**
 * One autocannon run against the stack process `pid`; latencies are taken per response
 * (autocannon's own histogram is whole ms).
 */
async function load(
  pid: number | undefined,
  options: Parameters<typeof autocannon>[0],
): Promise<LoadFigures> {
  const latencies: number[] = [];
  const cpuBefore = cpuMicrosOf(pid);
  const instance = autocannon({ connections, ...options });
  instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await instance;
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    samples: latencies.length,
    non2xx: result.non2xx + result.errors + result.timeouts,
    cpuMicros: (cpuMicrosOf(pid) - cpuBefore) / Math.max(1, latencies.length),
  };
}

/**
 * What the webhook's hand-off costs its caller alone: the CPU of this (otherwise idle) process per
 * signed PutEvents of one event the size of a PersonaEventReceived, sent one at a time with the
 * client the publisher builds (cacheMiddleware) to the stack's bus. The detail type matches no
 * rule, so nothing runs after it.
 */
async function putEventsClientCpu(info: StackInfo, callsPerRound = 1_000): Promise<number> {
  const client = new EventBridgeClient({
    cacheMiddleware: true,
    endpoint: info.eventBridge.endpoint,
    region: 'eu-central-1',
    credentials: localCredentials,
  });
  const detail = JSON.stringify({
    eventId: 'evt_0123456789abcdef01234567',
    name: 'inquiry.completed',
    createdAt: '2026-11-25T12:00:00.000000Z',
    inquiryId: 'inq_0123456789abcdef01234567',
    referenceId: 'auth0|0123456789abcdef01234567',
  });
  const send = () =>
    client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: info.eventBridge.busName,
            Source: 'bench.probe',
            DetailType: 'BenchProbe',
            Detail: detail,
          },
        ],
      }),
    );
  // Warm first (modules, the connection, the JIT: the first thousand calls cost up to twice as
  // much), then the median of three rounds.
  for (let call = 0; call < 1_000; call++) await send();
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    const before = process.cpuUsage();
    for (let call = 0; call < callsPerRound; call++) await send();
    const used = process.cpuUsage(before);
    rounds.push((used.user + used.system) / callsPerRound);
  }
  client.destroy();
  return median(rounds);
}

/** Rounds interleaved so a busy moment of the machine hits each; figures over every sample. */
async function interleaved(rounds: number, ...loads: (() => Promise<LoadFigures>)[]): Promise<LoadFigures[]> {
  const runs: LoadFigures[][] = loads.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (const [index, run] of loads.entries()) runs[index]?.push(await run());
  const combine = (of: LoadFigures[]): LoadFigures => ({
    requestsPerSecond: median(of.map((run) => run.requestsPerSecond)),
    p50: median(of.map((run) => run.p50)),
    p99: median(of.map((run) => run.p99)),
    samples: of.reduce((sum, run) => sum + run.samples, 0),
    non2xx: of.reduce((sum, run) => sum + run.non2xx, 0),
    cpuMicros: median(of.map((run) => run.cpuMicros)),
  });
  return runs.map(combine);
}

export async function measureApi(log: (line: string) => void = () => {}): Promise<ApiFigures> {
  const stack = await spawnStack({
    ports: benchPorts(),
    web: 'dist',
    env: { POWERTOOLS_LOG_LEVEL: 'ERROR', LOCAL_PER_IP_WRITE_LIMIT: '1000000' },
  });
  try {
    const { info } = stack;
    const pid = stack.child.pid;
    // CloudFront adds the origin secret; the budgets are the gateway's and the handlers', so the
    // bench sends it as CloudFront would and calls the gateway directly.
    const { originSecret } = JSON.parse(await readFile(join(stack.stateDir, 'secrets.json'), 'utf8')) as {
      originSecret: string;
    };
    const origin = { [originVerifyHeader]: originSecret };
    const settle = () => fetch(`${info.api}/__local/events/settle`, { method: 'POST' }).then((r) => r.text());

    log('api: DynamoDB calls per request');
    const dynamoDbCalls = await measureDynamoDbCalls(info);

    const users = await enrolledUsers(info, 11);
    const [loadUser, ...visibleUsers] = users as [EnrolledUser, ...EnrolledUser[]];

    log('api: gateway overhead (GET /api/health vs the no-op and the no-op route, 3 x 3 x 4 s)');
    // Warm the handler module and the connections first.
    await load(pid, { url: `${info.api}/api/health`, headers: origin, duration: 2 });
    const [noop, noopRoute, health] = (await interleaved(
      3,
      () => load(pid, { url: `${info.api}/__local/noop`, duration: 4 }),
      () => load(pid, { url: `${info.api}/__local/noop-route`, duration: 4 }),
      () => load(pid, { url: `${info.api}/api/health`, headers: origin, duration: 4 }),
    )) as [LoadFigures, LoadFigures, LoadFigures];

    log('api: webhook acknowledgement (3 x 400 signed events, unique ids)');
    let second = 0;
    const base = Date.now();
    const control = (name: string) =>
      fetch(`${info.api}/__local/events/${name}`, { method: 'POST' }).then((r) => r.text());
    /**
     * One round of 400 events. `held`: the bus accepts each event but its targets wait until the
     * round is over, as in AWS, where they run in other functions; otherwise this process also
     * applies every event while answering the next (the local stack's co-location, reported).
     */
    const webhookRound = async (held: boolean) => {
      if (held) await control('hold');
      const figures = await load(pid, {
        url: info.api,
        amount: 400,
        requests: [
          {
            method: 'POST',
            path: '/api/webhooks/persona',
            setupRequest: (request) => {
              second += 1;
              // Later and later events for one inquiry, as Persona sends them during a verification.
              const body = personaEvent('inquiry.completed', loadUser, new Date(base + second * 1000));
              return {
                ...request,
                body,
                headers: {
                  ...origin,
                  'content-type': 'application/json',
                  'persona-signature': signatureHeader(info.persona.webhookSecret, body),
                },
              };
            },
          },
        ],
      });
      // Every event is applied, untimed, before the next round and the next measurement.
      await control('release');
      await settle();
      return figures;
    };
    await webhookRound(false); // warm-up: the handler module, the bus, the target
    const [webhook, healthAgain] = (await interleaved(
      3,
      () => webhookRound(true),
      () => load(pid, { url: `${info.api}/api/health`, headers: origin, duration: 4 }),
    )) as [LoadFigures, LoadFigures];
    log('api: webhook acknowledgement with the targets running in this process (reported)');
    const webhookColocated = await webhookRound(false);
    const deadLetters = (await (await fetch(`${info.api}/__local/dead-letters`)).json()) as unknown[];
    const healthReference = {
      ...health,
      p50: median([health.p50, healthAgain.p50]),
      cpuMicros: median([health.cpuMicros, healthAgain.cpuMicros]),
    };

    log('api: webhook -> status visible (100 status changes)');
    const visible = await measureVisible(info, visibleUsers, 10);
    log("api: the webhook's signed PutEvents alone, its caller's CPU (3 x 1,000 calls)");
    const putEventsClientCpuMicros = await putEventsClientCpu(info);
    return {
      noop,
      noopRoute,
      health: healthReference,
      webhook,
      webhookColocated,
      deadLetters: deadLetters.length,
      visible,
      dynamoDbCalls,
      putEventsClientCpuMicros,
    };
  } finally {
    await stack.stop();
  }
}

/**
 * `perUser` status changes for each user, one at a time: pending, approved, rejected, approved...
 * Each is timed from sending the webhook until GET /api/me and the identity provider's
 * app_metadata both show the new status (polled every 5 ms; given up after 10 s: not arrived).
 */
async function measureVisible(info: StackInfo, users: EnrolledUser[], perUser: number) {
  const api = webApi(info);
  const token = await managementToken(info);
  const statuses = ['pending', 'approved', 'rejected'] as const;
  const eventFor = {
    pending: 'inquiry.completed',
    approved: 'inquiry.approved',
    rejected: 'inquiry.declined',
  };
  const times: number[] = [];
  let sent = 0;
  let arrived = 0;
  const base = Date.now();
  for (let step = 0; step < perUser; step++) {
    const status = step === 0 ? 'pending' : (statuses[1 + ((step - 1) % 2)] ?? 'approved');
    for (const user of users) {
      const body = personaEvent(eventFor[status], user, new Date(base + step * 1000));
      const started = performance.now();
      sent += 1;
      const answer = await api('/api/webhooks/persona', {
        method: 'POST',
        body,
        headers: { 'persona-signature': signatureHeader(info.persona.webhookSecret, body) },
      });
      await answer.arrayBuffer();
      if (answer.status !== 200) continue;
      let meSeen = false;
      let idpSeen = false;
      while (performance.now() - started < 10_000 && !(meSeen && idpSeen)) {
        if (!meSeen) {
          const me = await api('/api/me', { token: user.token });
          meSeen = ((await me.json()) as { kycStatus?: string }).kycStatus === status;
        }
        if (!idpSeen) {
          const answer = await fetch(`${info.idp.issuer}api/v2/users/${encodeURIComponent(user.userId)}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const idpUser = (await answer.json()) as { app_metadata?: { kyc_status?: string } };
          idpSeen = idpUser.app_metadata?.kyc_status === status;
        }
        if (!(meSeen && idpSeen)) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      if (meSeen && idpSeen) {
        arrived += 1;
        times.push(performance.now() - started);
      }
      // The decision email and the rest of the change's reactions finish before the next change.
      await fetch(`${info.api}/__local/events/settle`, { method: 'POST' }).then((r) => r.text());
    }
  }
  return { p50: percentile(times, 50), p90: percentile(times, 90), arrived, sent };
}
