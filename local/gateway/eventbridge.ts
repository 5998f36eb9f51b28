import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventPattern, EventRuleDef } from '#lambdas/event-rules.ts';
import type { LambdaContext } from '#lambdas/http/api-gateway.ts';
import { lambdaContext } from './http-api.ts';

// A local EventBridge: the `PutEvents` action of the AWS JSON 1.1 protocol, so the real
// `@aws-sdk/client-eventbridge` can call it, and a dispatcher that delivers each event to the
// targets of `event-rules.ts` with retries, then to a dead-letter log.

export interface EventBridgeEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

export type EventTarget = (event: EventBridgeEvent, context: LambdaContext) => Promise<unknown>;

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
   * Delay before a matched event is delivered. EventBridge delivers asynchronously, typically tens
   * to hundreds of milliseconds after `PutEvents`; delivering on the same tick would make a
   * publisher's own answer wait for its subscribers, which never happens in AWS. Default 25 ms.
   */
  deliveryDelayMs?: number;
  /** How often scheduled rules fire locally; defaults to their `rateMinutes`. 0 disables the timers. */
  scheduleIntervalMs?(rule: EventRuleDef): number;
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

export function createEventBus(options: EventBusOptions) {
  const deadLetters: DeadLetter[] = [];
  const inFlight = new Set<Promise<void>>();
  const delay = options.retryDelayMs ?? ((attempt: number) => Math.min(5_000, 100 * 2 ** (attempt - 1)));
  const log = options.log ?? (() => {});
  const deliveryDelay = options.deliveryDelayMs ?? 25;

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
    for (const rule of options.rules) {
      if (!rule.pattern || !matches(rule.pattern, event)) continue;
      const delivery = new Promise((resolve) => setTimeout(resolve, deliveryDelay))
        .then(() => deliver(rule, event))
        .finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    }
    return { EventId: event.id };
  }

  async function deliver(rule: EventRuleDef, event: EventBridgeEvent) {
    const attempts = 1 + rule.retry.maximumRetryAttempts;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const target = await options.loadTarget(rule);
        await target(structuredClone(event), lambdaContext(rule.handler, rule.timeoutSeconds ?? 30));
        log(`event ${event['detail-type']} ${event.id} -> ${rule.id}: delivered (attempt ${attempt})`);
        return;
      } catch (error) {
        lastError = error;
        log(
          `event ${event['detail-type']} ${event.id} -> ${rule.id}: attempt ${attempt} failed: ${String(error)}`,
        );
        if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, delay(attempt)));
      }
    }
    const letter: DeadLetter = {
      ruleId: rule.id,
      event,
      attempts,
      error: lastError instanceof Error ? lastError.message : String(lastError),
      at: new Date().toISOString(),
    };
    deadLetters.push(letter);
    log(`event ${event.id} -> ${rule.id}: dead-lettered after ${attempts} attempts`);
    if (options.deadLetterFile) await appendFile(options.deadLetterFile, `${JSON.stringify(letter)}\n`);
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
    const delivery = deliver(rule, event).finally(() => inFlight.delete(delivery));
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
    deadLetters: () => [...deadLetters],
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
