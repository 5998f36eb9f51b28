import { createHmac } from 'node:crypto';
import type { createFaultKnob, faultSchemas } from '#local/faults.ts';
import { newId } from './http-util.ts';
import type { WebhookDelivery } from './types.ts';

/** Persona's retry schedule (seconds after the previous attempt), compressed 100x: 7 retries, 8 attempts. */
export const defaultRetryDelaysMs = [3, 64, 729, 4096, 15625, 46656, 117649].map((s) => s * 10);
const TIMEOUT_MS = 5000;
const SUCCESS = new Set([200, 201, 202, 204]);

export interface WebhookSubscriber {
  id: string;
  url: string;
  secret: string;
  enabledEvents: string[];
  createdAt: string;
}

export interface PersonaEvent {
  id: string;
  name: string;
  inquiryId: string;
  /** The serialised event; every subscriber gets the same bytes. */
  body: string;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>` */
export function signatureHeader(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

function matches(subscriber: WebhookSubscriber, name: string): boolean {
  return subscriber.enabledEvents.some(
    (pattern) =>
      pattern === '*' ||
      pattern === name ||
      (pattern.endsWith('.*') && name.startsWith(pattern.slice(0, -1))),
  );
}

/**
 * Delivers events like Persona: signed POSTs, 5 s timeout, retries on the schedule. Events for one
 * inquiry reach a subscriber in order: an event's first attempt waits for the previous event's first
 * attempt to finish (retries then run independently, as they do at Persona).
 */
export class WebhookDispatcher {
  readonly subscribers: WebhookSubscriber[] = [];
  private readonly log: WebhookDelivery[] = [];
  private readonly chains = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly aborter = new AbortController();
  private closed = false;

  constructor(
    private readonly retryDelaysMs: number[],
    private readonly logToStdout: boolean,
    private readonly timeoutMs = TIMEOUT_MS,
    private readonly faults?: ReturnType<typeof createFaultKnob<typeof faultSchemas.personaWebhooks>>,
  ) {}

  addSubscriber(url: string, secret: string, enabledEvents: string[]): WebhookSubscriber {
    const subscriber: WebhookSubscriber = {
      id: newId('wbh'),
      url,
      secret,
      enabledEvents,
      createdAt: new Date().toISOString(),
    };
    this.subscribers.push(subscriber);
    return subscriber;
  }

  deliveries(): WebhookDelivery[] {
    return this.log.map((d) => ({ ...d }));
  }

  emit(event: PersonaEvent): void {
    if (this.closed) return;
    for (const subscriber of this.subscribers) {
      if (!matches(subscriber, event.name)) continue;
      const faults = this.faults?.config;
      if (faults && faults.reorderWindowMs > 0) {
        // Reordering: no per-inquiry chain, a random wait instead, so a later event may land first.
        const wait = Math.floor((this.faults?.next() ?? 0) * faults.reorderWindowMs);
        this.later(wait, () => this.firstAttempt(subscriber, event));
        continue;
      }
      const key = `${subscriber.id}:${event.inquiryId}`;
      const previous = this.chains.get(key) ?? Promise.resolve();
      const next = previous.then(() => this.firstAttempt(subscriber, event)).catch(() => undefined);
      this.chains.set(key, next);
      void next.finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.aborter.abort();
    await Promise.allSettled([...this.chains.values()]);
  }

  private async firstAttempt(subscriber: WebhookSubscriber, event: PersonaEvent): Promise<void> {
    const firstAttemptedAt = Math.floor(Date.now() / 1000);
    const faults = this.faults?.config;
    if (faults && this.faults?.roll(faults.duplicateRate, 'duplicated')) {
      void this.attempt(subscriber, event, 1, firstAttemptedAt).catch(() => undefined);
    }
    await this.attempt(subscriber, event, 1, firstAttemptedAt);
  }

  private later(delayMs: number, run: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void run().catch(() => undefined);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(
    subscriber: WebhookSubscriber,
    event: PersonaEvent,
    attempt: number,
    firstAttemptedAt: number,
    redelivery = false,
  ): Promise<void> {
    if (this.closed) return;
    const totalAttempts = this.retryDelaysMs.length + 1;
    const at = new Date().toISOString();
    let status: number | null = null;
    let error: string | undefined;
    try {
      const response = await fetch(subscriber.url, {
        method: 'POST',
        body: event.body,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Persona-Webhooks (local emulator)',
          'Persona-Signature': signatureHeader(subscriber.secret, event.body),
          'Persona-Webhook-Attempts-Made': String(attempt),
          'Persona-Webhook-Attempts-Left': String(totalAttempts - attempt),
          'Persona-Webhook-First-Attempted-At': String(firstAttemptedAt),
        },
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.aborter.signal]),
      });
      status = response.status;
      // Drain the answer so the connection is released.
      await response.arrayBuffer().catch(() => undefined);
    } catch (caught) {
      error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
    }
    if (this.closed && status === null) return;
    const ok = status !== null && SUCCESS.has(status);
    const delivery: WebhookDelivery = {
      eventId: event.id,
      eventName: event.name,
      inquiryId: event.inquiryId,
      webhookId: subscriber.id,
      url: subscriber.url,
      status,
      ok,
      attempt,
      at,
    };
    if (error !== undefined) delivery.error = error;
    this.log.push(delivery);
    if (this.logToStdout) {
      const outcome = ok ? 'delivered' : `failed (${status ?? error})`;
      console.log(
        `[persona] webhook ${event.name} ${event.id} -> ${subscriber.url} attempt ${attempt}/${totalAttempts}: ${outcome}`,
      );
    }
    if (this.closed) return;
    if (ok) {
      const faults = this.faults?.config;
      // At-least-once: an acknowledged event may still come again, as a new attempt.
      if (faults && !redelivery && this.faults?.roll(faults.redeliverRate, 'redelivered'))
        this.later(faults.redeliverAfterMs, () =>
          this.attempt(subscriber, event, attempt + 1, firstAttemptedAt, true),
        );
      return;
    }
    const delay = this.retryDelaysMs[attempt - 1];
    if (delay === undefined) return;
    this.later(delay, () => this.attempt(subscriber, event, attempt + 1, firstAttemptedAt, redelivery));
  }
}
