import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';

// The bench's reference for the webhook's CPU (issue 22, item 6; ADR 0063): what the signed
// `PutEvents` the webhook must make before answering costs this process alone, measured the way
// the gateway's CPU per request is (`process.cpuUsage()` deltas of the stack process, every
// thread). It runs inside the stack process, so a call costs what it costs the webhook here: the
// SDK client built as the publisher builds it (lambdas/adapters/eventbridge-publisher.ts, from the
// handlers' environment: endpoint, region, credentials) and the local bus answering it on the same
// event loop. The detail type matches no rule, so nothing runs after it. Local only: served as
// `POST /__local/bench/put-events`, never part of the product.

export interface PutEventsProbeFigures {
  /** Calls per round, in flight at once, rounds. */
  calls: number;
  concurrency: number;
  rounds: number;
  /** The stack process's CPU per call, µs, each round; the median of the rounds. */
  cpuMicrosPerRound: number[];
  cpuMicros: number;
  callsPerSecond: number;
}

/** One event the size of a PersonaEventReceived, as the webhook publishes it (the bench signs the same). */
export const probeEventDetail = JSON.stringify({
  eventId: 'evt_0123456789abcdef01234567',
  name: 'inquiry.completed',
  createdAt: '2026-11-25T12:00:00.000000Z',
  inquiryId: 'inq_0123456789abcdef01234567',
  referenceId: 'auth0|0123456789abcdef01234567',
});

const medianOf = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

export async function putEventsProbe(
  busName: string,
  { calls = 1_000, concurrency = 10, rounds = 3, warmup = 1_000 } = {},
): Promise<PutEventsProbeFigures> {
  // As createEventPublisher() builds it: everything else from the environment the handlers see.
  const client = new EventBridgeClient({ cacheMiddleware: true });
  const command = () =>
    new PutEventsCommand({
      Entries: [
        { EventBusName: busName, Source: 'bench.probe', DetailType: 'BenchProbe', Detail: probeEventDetail },
      ],
    });
  /** `count` calls, `concurrency` at a time (the webhook's load keeps 10 requests in flight). */
  const run = async (count: number) => {
    let started = 0;
    const worker = async () => {
      while (started < count) {
        started += 1;
        const answer = await client.send(command());
        if ((answer.FailedEntryCount ?? 0) > 0) throw new Error('the local bus refused a probe event');
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  try {
    await run(warmup); // modules, connections, the JIT
    const cpuMicrosPerRound: number[] = [];
    let wallMs = 0;
    for (let round = 0; round < rounds; round++) {
      const at = performance.now();
      const before = process.cpuUsage();
      await run(calls);
      const used = process.cpuUsage(before);
      wallMs += performance.now() - at;
      cpuMicrosPerRound.push((used.user + used.system) / calls);
    }
    return {
      calls,
      concurrency,
      rounds,
      cpuMicrosPerRound,
      cpuMicros: medianOf(cpuMicrosPerRound),
      callsPerSecond: (calls * rounds) / (wallMs / 1000),
    };
  } finally {
    client.destroy();
  }
}
