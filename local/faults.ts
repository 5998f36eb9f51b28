import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { readRawBody, sendJson } from './http.ts';

// Fault knobs of the local emulators (ADR 0035). Each emulator owns one typed knob set, set per test
// through its own `POST /__local/faults` and cleared by `DELETE /__local/faults`. Off by default;
// the dice are seeded so a failing run can be replayed with the same seed. They live in the
// emulators only: handlers keep calling them through their real SDK clients and cannot see them.

const rate = z.number().min(0).max(1);

export const faultSchemas = {
  /** The identity provider's Management API (`/api/v2/*`). */
  managementApi: z.strictObject({
    /** Share of calls answered 429 with `x-ratelimit-reset`. */
    rateLimitRate: rate.default(0),
    /** Share of calls answered 503. */
    unavailableRate: rate.default(0),
    /** Seconds from now that `x-ratelimit-reset` announces (Auth0 sends an epoch second). */
    rateLimitResetSeconds: z.number().int().min(0).max(60).default(0),
    /** Delay added before every call is answered. */
    delayMs: z.number().int().min(0).max(30_000).default(0),
  }),
  /** The local EventBridge. */
  eventBridge: z.strictObject({
    /** Share of `PutEvents` entries answered as failed (`FailedEntryCount`, `InternalFailure`). */
    putEventsFailureRate: rate.default(0),
    /** Share of target invocations that fail before the target runs (retried, then dead-lettered). */
    targetFailureRate: rate.default(0),
    /**
     * Share of deliveries made twice, a second invocation with the same event shortly after the
     * first: EventBridge delivers at least once, so every target must be idempotent.
     */
    duplicateDeliveryRate: rate.default(0),
    /** While set, every delivery retry waits this long instead of the bus's backoff (short tests). */
    retryDelayMs: z.number().int().min(0).max(60_000).optional(),
  }),
  /** The Persona emulator's webhooks: what Persona's at-least-once delivery may do. */
  personaWebhooks: z.strictObject({
    /** Share of events delivered twice at once (two overlapping first attempts). */
    duplicateRate: rate.default(0),
    /** Share of events delivered again `redeliverAfterMs` after a successful delivery. */
    redeliverRate: rate.default(0),
    redeliverAfterMs: z.number().int().min(0).max(60_000).default(100),
    /** When above 0, an inquiry's events are no longer sent in order: each waits 0..this many ms. */
    reorderWindowMs: z.number().int().min(0).max(60_000).default(0),
    /** `created-at` in whole seconds, as Persona's examples show: close events share one. */
    sameSecond: z.boolean().default(false),
  }),
  /** The SES proxy in front of aws-ses-v2-local. */
  ses: z.strictObject({
    /** Share of `SendEmail` calls answered 429 `TooManyRequestsException`. */
    sendFailureRate: rate.default(0),
    /** 429 `TooManyRequestsException` (throttling: the SDK backs off longer) or 503 (a 5xx). */
    failureStatus: z.union([z.literal(429), z.literal(503)]).default(429),
  }),
};

/** mulberry32: a tiny seeded generator, enough to make fault draws replayable. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface FaultCounts {
  [fault: string]: number;
}

/**
 * One emulator's knobs: `config` (undefined while off), a seeded `roll(rate)` and counts of the
 * faults injected, which tests report.
 */
export function createFaultKnob<S extends z.ZodType<object>>(schema: S) {
  let config: z.output<S> | undefined;
  let random = seededRandom(1);
  let counts: FaultCounts = {};
  return {
    get config(): z.output<S> | undefined {
      return config;
    },
    /** A seeded draw in [0, 1) (delays, orders), so a replayed seed replays those too. */
    next: () => random(),
    roll(share: number, fault: string): boolean {
      if (share <= 0) return false;
      const hit = random() < share;
      if (hit) counts[fault] = (counts[fault] ?? 0) + 1;
      return hit;
    },
    set(input: unknown, seed: number) {
      config = schema.parse(input);
      random = seededRandom(seed);
      counts = {};
    },
    reset() {
      config = undefined;
      counts = {};
    },
    counts: () => ({ ...counts }),
  };
}

const controlBody = z.looseObject({ seed: z.number().int().default(1) });

/**
 * `POST /__local/faults` with `{ seed?, <knob>: {...} }` sets the knobs named (the others are
 * turned off); `DELETE` turns every knob off; `GET` answers the knobs and the faults injected.
 * Answers true when it handled the request.
 */
export async function handleFaultControl(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  knobs: Record<string, ReturnType<typeof createFaultKnob>>,
  body?: Buffer,
): Promise<boolean> {
  if (pathname !== '/__local/faults') return false;
  if (req.method === 'GET') {
    sendJson(
      res,
      200,
      Object.fromEntries(
        Object.entries(knobs).map(([name, knob]) => [
          name,
          { config: knob.config ?? null, injected: knob.counts() },
        ]),
      ),
    );
    return true;
  }
  if (req.method === 'DELETE') {
    for (const knob of Object.values(knobs)) knob.reset();
    sendJson(res, 200, { faults: 'off' });
    return true;
  }
  if (req.method !== 'POST') {
    sendJson(res, 405, { message: 'Method Not Allowed' });
    return true;
  }
  try {
    const raw = body ?? (await readRawBody(req, 64 * 1024));
    const input = controlBody.parse(JSON.parse(raw.toString('utf8') || '{}'));
    const unknown = Object.keys(input).filter((key) => key !== 'seed' && !(key in knobs));
    if (unknown.length > 0) throw new Error(`unknown knobs: ${unknown.join(', ')}`);
    // A body that does not parse turns every knob off (below), never half of them on.
    for (const [name, knob] of Object.entries(knobs)) {
      if (input[name] !== undefined) knob.set(input[name], input.seed);
      else knob.reset();
    }
    sendJson(res, 200, { faults: Object.keys(input).filter((key) => key !== 'seed'), seed: input.seed });
  } catch (error) {
    for (const knob of Object.values(knobs)) knob.reset();
    sendJson(res, 400, { message: error instanceof Error ? error.message : String(error) });
  }
  return true;
}
