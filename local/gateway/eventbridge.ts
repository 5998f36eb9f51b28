import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventBridgeEvent as AwsEventBridgeEvent, Context } from 'aws-lambda';
import { asyncInvocation, type EventPattern, type EventRuleDef } from '#lambdas/event-rules.ts';
import { lambdaContext } from './http-api.ts';

// A local EventBridge: the `PutEvents` action of the AWS JSON 1.1 protocol, so the real
// `@aws-sdk/client-eventbridge` can call it, and a dispatcher that delivers each event to the
// targets of `event-rules.ts` with retries, then to a dead-letter log.

/** What the bus delivers to a target: EventBridge's event, its detail a JSON object. */
export type EventBridgeEvent = AwsEventBridgeEvent<string, Record<string, unknown>>;

export type EventTarget = (event: EventBridgeEvent, context: Context) => Promise<unknown>;

export interface DeadLetter {
  ruleId: string;
  event: EventBridgeEvent;
  attempts: number;
  error: string;
  at: string;
}

export interface EventBusOptions {
  busName: string;
  region: string;
  rules: EventRuleDef[];
  loadTarget(rule: EventRuleDef): Promise<EventTarget>;
  /** Delay before retry n (1-based); EventBridge backs off over hours, locally it is compressed. */
  retryDelayMs?(attempt: number): number;
  deadLetterFile?: string;
  log?(line: string): void;
  /**
   * Delay before a matched event is delivered. Default 0: a later turn of the event loop, after
   * the `PutEvents` answer is written, so a publisher's answer never waits for its subscribers
   * (it never does in AWS). EventBridge's own latency (tens to hundreds of milliseconds) is not
   * emulated: it is AWS's, not this product's, and a fixed delay only added a constant to every
   * end-to-end time the bench measures (ADR 0053; it was 25 ms).
   */
  deliveryDelayMs?: number;
  /** How often scheduled rules fire locally; defaults to their `rateMinutes`. 0 disables the timers. */
  scheduleIntervalMs?(rule: EventRuleDef): number;
  /**
   * Delay before a throttled event (its function's reserved concurrency in use) is tried again,
   * for the n-th throttle of that event; by default Lambda's own backoff (ADR 0062).
   */
  throttleRetryDelayMs?(throttle: number): number;
  /** Fault knobs (ADR 0035): each call draws whether this entry or invocation fails. */
  faults?: {
    putEventsEntryFails(): boolean;
    targetInvocationFails(): boolean;
    deliveryDuplicated(): boolean;
  };
}

/** What the bus accepted (the local stand-in for the bus's metrics), for tests to count. */
export interface AcceptedEvent {
  id: string;
  'detail-type': string;
  source: string;
  detail: Record<string, unknown>;
}

export interface RedriveResult {
  replayed: number;
  delivered: number;
  deadLettered: number;
}

interface PutEventsEntry {
  Source?: unknown;
  DetailType?: unknown;
  Detail?: unknown;
  EventBusName?: unknown;
  Resources?: unknown;
  Time?: unknown;
}

const maxEntrySize = 256 * 1024;

/**
 * Local backoff before retry n (1-based) of a failed delivery: AWS waits about 1 and 2 minutes
 * between Lambda's retries of a function error, and EventBridge backs off over hours; locally the
 * delays are compressed. That is never more generous than AWS: the attempts are as many, and
 * whatever a failure waits for (a quota's reset, a restart) has less time to come back.
 */
export const defaultRetryDelayMs = (attempt: number) => Math.min(5_000, 100 * 2 ** (attempt - 1));

/**
 * Lambda's backoff for a throttled asynchronous invocation: "the retry interval increases
 * exponentially from 1 second after the first attempt to a maximum of 5 minutes" (AWS Lambda
 * developer guide, "How Lambda handles errors and retries with asynchronous invocation").
 */
export const lambdaThrottleRetryDelayMs = (throttle: number) =>
  Math.min(300_000, 1_000 * 2 ** (throttle - 1));

/** A wait that ends early, resolving false, when the bus stops. */
function waitUnless(stopping: AbortSignal, ms: number): Promise<boolean> {
  if (stopping.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (completed: boolean) => {
      clearTimeout(timer);
      stopping.removeEventListener('abort', onAbort);
      resolve(completed);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    stopping.addEventListener('abort', onAbort, { once: true });
  });
}

interface ConcurrencyPool {
  /** A slot to run in; `expired` once the deadline passed while throttled; `stopped` when the bus stops. */
  acquire(deadlineMs: number): Promise<{ release(): void } | 'expired' | 'stopped'>;
}

/**
 * A function's reserved concurrency: at most `limit` invocations at once. A throttled event is
 * not queued in line for the next free slot: like Lambda, it tries again after its own backoff
 * (never sooner than Lambda's interval), so a slot freed meanwhile may stay idle.
 */
function concurrencyPool(
  limit: number | undefined,
  throttleDelay: (throttle: number) => number,
  stats: { throttles: number },
  stopping: AbortSignal,
): ConcurrencyPool {
  let running = 0;
  const slot = () => {
    running += 1;
    let released = false;
    return {
      release: () => {
        if (!released) running -= 1;
        released = true;
      },
    };
  };
  return {
    async acquire(deadlineMs) {
      if (limit === undefined) return slot();
      for (let throttle = 1; ; throttle++) {
        if (running < limit) return slot();
        stats.throttles += 1;
        // Never earlier than Lambda's interval, and up to half of it later: events throttled
        // together do not come back in lockstep, which a fleet of pollers never does either.
        const wait = throttleDelay(throttle) * (1 + Math.random() * 0.5);
        if (Date.now() + wait > deadlineMs) return 'expired';
        if (!(await waitUnless(stopping, wait))) return 'stopped';
      }
    },
  };
}

export function createEventBus(options: EventBusOptions) {
  // Dead letters survive a restart (the file is the store): a redrive after `npm start` again
  // still finds them.
  const deadLetters: DeadLetter[] =
    options.deadLetterFile && existsSync(options.deadLetterFile)
      ? readFileSync(options.deadLetterFile, 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as DeadLetter)
      : [];
  const accepted: AcceptedEvent[] = [];
  const inFlight = new Set<Promise<void>>();
  const delay = options.retryDelayMs ?? defaultRetryDelayMs;
  const log = options.log ?? (() => {});
  const deliveryDelay = options.deliveryDelayMs ?? 0;
  const throttleDelay = options.throttleRetryDelayMs ?? lambdaThrottleRetryDelayMs;
  const stats = { throttles: 0 };
  // Stopping ends every wait (throttled, or between retries): those events are dead-lettered, so a
  // restart's redrive replays them, instead of holding the shutdown for minutes.
  const stopping = new AbortController();
  const stoppedLetter = 'The local bus stopped while the event waited (throttled or between retries)';

  function busMatches(name: unknown): boolean {
    if (name === undefined || name === null || name === '') return options.busName === 'default';
    if (typeof name !== 'string') return false;
    return name === options.busName || name.endsWith(`:event-bus/${options.busName}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const target = req.headers['x-amz-target'];
    if (target !== 'AWSEvents.PutEvents') {
      return awsError(res, 400, 'UnknownOperationException', `Unsupported operation ${String(target)}`);
    }
    let input: { Entries?: PutEventsEntry[] };
    try {
      input = JSON.parse(body.toString('utf8'));
    } catch {
      return awsError(res, 400, 'SerializationException', 'Request body is not valid JSON');
    }
    const entries = input.Entries;
    if (!Array.isArray(entries) || entries.length < 1 || entries.length > 10) {
      return awsError(res, 400, 'ValidationException', 'Entries must contain between 1 and 10 items');
    }
    const unknownBus = entries.find((entry) => !busMatches(entry.EventBusName));
    if (unknownBus) {
      return awsError(
        res,
        400,
        'ResourceNotFoundException',
        `Event bus ${String(unknownBus.EventBusName)} does not exist.`,
      );
    }
    const results = entries.map((entry) => accept(entry));
    const answer = JSON.stringify({
      FailedEntryCount: results.filter((result) => 'ErrorCode' in result).length,
      Entries: results,
    });
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
    res.end(answer);
  }

  function accept(entry: PutEventsEntry): { EventId: string } | { ErrorCode: string; ErrorMessage: string } {
    if (typeof entry.Source !== 'string' || entry.Source === '') {
      return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter Source is not valid.' };
    }
    if (typeof entry.DetailType !== 'string' || entry.DetailType === '') {
      return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter DetailType is not valid.' };
    }
    let detail: unknown;
    try {
      detail = JSON.parse(typeof entry.Detail === 'string' ? entry.Detail : '');
    } catch {
      return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
    }
    if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) {
      return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
    }
    if (Buffer.byteLength(JSON.stringify(entry)) > maxEntrySize) {
      return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Entry exceeds 256 KB.' };
    }
    if (options.faults?.putEventsEntryFails()) {
      return { ErrorCode: 'InternalFailure', ErrorMessage: 'Injected fault: the entry was not accepted.' };
    }
    const time = typeof entry.Time === 'number' ? new Date(entry.Time * 1000) : new Date();
    const event: EventBridgeEvent = {
      version: '0',
      id: randomUUID(),
      'detail-type': entry.DetailType,
      source: entry.Source,
      account: '000000000000',
      time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region: options.region,
      resources: Array.isArray(entry.Resources) ? entry.Resources.map(String) : [],
      detail: detail as Record<string, unknown>,
    };
    accepted.push({
      id: event.id,
      'detail-type': event['detail-type'],
      source: event.source,
      detail: event.detail,
    });
    for (const rule of options.rules) {
      if (!rule.pattern || !matches(rule.pattern, event)) continue;
      const copies = options.faults?.deliveryDuplicated() ? 2 : 1;
      for (let copy = 0; copy < copies; copy++) {
        const delivery = new Promise((resolve) => setTimeout(resolve, deliveryDelay * (1 + copy)))
          .then(() => deliver(rule, event))
          .then(() => {})
          .finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
      }
    }
    return { EventId: event.id };
  }

  /**
   * One matched event to its rule's function, as AWS does it (ADR 0062). EventBridge invokes
   * Lambda asynchronously: its retry policy (`rule.retry`) covers only the Invoke call (the
   * `targetInvocationFails` knob). Once Lambda has the event, a throttle (the function's reserved
   * concurrency is in use) sends it back to Lambda's queue with backoff from 1 s to 5 minutes,
   * without counting as an attempt, until it is `maxEventAgeSeconds` old; a function error is
   * retried `retryAttempts` times (`asyncInvocation`). What exhausts either goes to the dead
   * letters (the on-failure destination and the rule's DLQ share one queue in AWS).
   */
  async function deliver(rule: EventRuleDef, event: EventBridgeEvent): Promise<boolean> {
    const invokeAttempts = 1 + rule.retry.maximumRetryAttempts;
    for (let attempt = 1; options.faults?.targetInvocationFails(); attempt++) {
      log(`event ${event['detail-type']} ${event.id} -> ${rule.id}: invoke ${attempt} failed (injected)`);
      if (attempt >= invokeAttempts)
        return deadLetter(rule, event, attempt, 'Injected fault: the target invocation failed');
      if (!(await waitUnless(stopping.signal, delay(attempt))))
        return deadLetter(rule, event, attempt, stoppedLetter);
    }
    const invocation = asyncInvocation(rule);
    const queuedAt = Date.now();
    const attempts = 1 + invocation.retryAttempts;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const slot = await concurrency(rule).acquire(queuedAt + invocation.maxEventAgeSeconds * 1000);
      if (slot === 'stopped') return deadLetter(rule, event, attempt - 1, stoppedLetter);
      if (slot === 'expired') {
        log(`event ${event.id} -> ${rule.id}: throttled until older than ${invocation.maxEventAgeSeconds} s`);
        return deadLetter(rule, event, attempt - 1, 'Event expired while throttled (maximum event age)');
      }
      try {
        const target = await options.loadTarget(rule);
        await target(structuredClone(event), lambdaContext(rule.handler, rule.timeoutSeconds ?? 30));
        log(`event ${event['detail-type']} ${event.id} -> ${rule.id}: delivered (attempt ${attempt})`);
        return true;
      } catch (error) {
        lastError = error;
        log(
          `event ${event['detail-type']} ${event.id} -> ${rule.id}: attempt ${attempt} failed: ${String(error)}`,
        );
      } finally {
        slot.release();
      }
      if (attempt < attempts && !(await waitUnless(stopping.signal, delay(attempt))))
        return deadLetter(rule, event, attempt, stoppedLetter);
    }
    return deadLetter(
      rule,
      event,
      attempts,
      lastError instanceof Error ? lastError.message : String(lastError),
    );
  }

  async function deadLetter(
    rule: EventRuleDef,
    event: EventBridgeEvent,
    attempts: number,
    error: string,
  ): Promise<false> {
    const letter: DeadLetter = { ruleId: rule.id, event, attempts, error, at: new Date().toISOString() };
    deadLetters.push(letter);
    log(`event ${event.id} -> ${rule.id}: dead-lettered after ${attempts} attempts`);
    if (options.deadLetterFile) await appendFile(options.deadLetterFile, `${JSON.stringify(letter)}\n`);
    return false;
  }

  const pools = new Map<string, ConcurrencyPool>();
  function concurrency(rule: EventRuleDef): ConcurrencyPool {
    let pool = pools.get(rule.id);
    if (!pool) {
      pool = concurrencyPool(rule.reservedConcurrency, throttleDelay, stats, stopping.signal);
      pools.set(rule.id, pool);
    }
    return pool;
  }

  let redriving: Promise<RedriveResult> | undefined;

  /**
   * Replays every dead letter to its rule's target, with the rule's retries, as a DLQ redrive
   * does: a delivered letter leaves the store, one that fails again is dead-lettered again. One
   * redrive at a time, so two overlapping calls never replay a letter twice.
   */
  function redrive(): Promise<RedriveResult> {
    redriving ??= (async () => {
      const letters = deadLetters.splice(0, deadLetters.length);
      if (options.deadLetterFile) await writeFile(options.deadLetterFile, '');
      const outcomes = await Promise.all(
        letters.map(async (letter) => {
          const rule = options.rules.find((candidate) => candidate.id === letter.ruleId);
          if (!rule) {
            // A rule since removed: keep the letter rather than drop it.
            deadLetters.push(letter);
            if (options.deadLetterFile)
              await appendFile(options.deadLetterFile, `${JSON.stringify(letter)}\n`);
            return false;
          }
          log(`redrive ${letter.event.id} -> ${rule.id}`);
          return deliver(rule, letter.event);
        }),
      );
      const delivered = outcomes.filter(Boolean).length;
      return { replayed: letters.length, delivered, deadLettered: letters.length - delivered };
    })().finally(() => {
      redriving = undefined;
    });
    return redriving;
  }

  /** Fires a scheduled rule now, as EventBridge Scheduler would, with a `Scheduled Event`. */
  function trigger(rule: EventRuleDef, detail: Record<string, unknown> = {}): Promise<void> {
    const event: EventBridgeEvent = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region: options.region,
      resources: [`arn:aws:events:${options.region}:000000000000:rule/${rule.id}`],
      detail,
    };
    const delivery = deliver(rule, event)
      .then(() => {})
      .finally(() => inFlight.delete(delivery));
    inFlight.add(delivery);
    return delivery;
  }

  const timers = options.rules.flatMap((rule) => {
    if (!rule.schedule) return [];
    const interval = options.scheduleIntervalMs?.(rule) ?? rule.schedule.rateMinutes * 60_000;
    if (interval <= 0) return [];
    const timer = setInterval(() => void trigger(rule), interval);
    timer.unref();
    return [timer];
  });

  return {
    handle,
    triggerSchedule(ruleId: string, detail?: Record<string, unknown>): Promise<void> {
      const rule = options.rules.find((candidate) => candidate.id === ruleId && candidate.schedule);
      if (!rule) throw new Error(`No scheduled rule ${ruleId}`);
      return trigger(rule, detail);
    },
    stopSchedules: () => {
      for (const timer of timers) clearInterval(timer);
    },
    /**
     * Stops the schedules and every wait: an event throttled or waiting for a retry is
     * dead-lettered at once (`npm run events:redrive` replays it after a restart); invocations
     * under way finish (`settled`).
     */
    stop: () => {
      for (const timer of timers) clearInterval(timer);
      stopping.abort();
    },
    deadLetters: () => [...deadLetters],
    /** How many times an event found its function's reserved concurrency in use. */
    throttles: () => stats.throttles,
    /** Deliveries under way: running, throttled or waiting for a retry. */
    pending: () => inFlight.size,
    accepted: () => [...accepted],
    redrive,
    /** Resolves once every delivery under way has succeeded or been dead-lettered. */
    settled: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** EventBridge pattern matching for the subset `event-rules.ts` uses: exact values, OR within a list. */
export function matches(pattern: EventPattern, event: EventBridgeEvent): boolean {
  if (!pattern.source.includes(event.source)) return false;
  if (!pattern['detail-type'].includes(event['detail-type'])) return false;
  for (const [field, accepted] of Object.entries(pattern.detail ?? {})) {
    const value = event.detail[field];
    if (!accepted.some((candidate) => candidate === value)) return false;
  }
  return true;
}

function awsError(res: ServerResponse, status: number, type: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': type });
  res.end(JSON.stringify({ __type: type, message }));
}
