import * as z from 'zod/mini';
import type { PersonaEventReceived } from '#contracts/events.ts';
import { type FlaggedCheck, flaggedChecksMax, personaIdentifierPattern } from '#contracts/flagged-checks.ts';
import { personaInquiryResource, personaWebhookEvent } from '#contracts/persona-webhook.ts';
import { statusForEvent } from './status-mapping.ts';

// One Persona event has three shapes: the webhook's body (Persona's JSON:API, `personaWebhookEvent`),
// the bus event the webhook and the reconciliation publish (`PersonaEventReceived`), and the input
// of `processPersonaEvent` (`PersonaEvent`). This module owns the translations between them.

/** A verified, schema-checked Persona event, reduced to what the backend reads. */
export interface PersonaEvent {
  eventId: string;
  name: string;
  /** `data.attributes.created-at`, normalised with `normaliseInstant`. */
  createdAt: string;
  /** Present for `inquiry.*` events. */
  inquiry: { id: string; referenceId: string | null } | null;
  /**
   * The failed checks of the verifications in the event's `included`; absent when it held none
   * (the event says nothing about them: a stored summary stays).
   */
  flaggedChecks?: FlaggedCheck[];
}

/**
 * An ISO 8601 instant in UTC with six fractional digits, so that string order is time order
 * (Persona's times may carry microseconds; `Date` would drop them).
 */
export function normaliseInstant(value: string): string {
  const utc = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/i.exec(value);
  if (utc?.[1] !== undefined) return `${utc[1]}.${(utc[2] ?? '').padEnd(6, '0').slice(0, 6)}Z`;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a time: ${value}`);
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** What a verified webhook body says, read as the bus event. */
export type WebhookBodyReading =
  | { kind: 'event'; event: PersonaEventReceived }
  /** An event name that changes no status (inquiry.created, inquiry.started, ...). */
  | { kind: 'unmapped'; name: string }
  /** Fields the backend reads are missing or malformed; paths are from the body's root. */
  | { kind: 'invalid'; issues: readonly z.core.$ZodIssue[] };

/** Where an `inquiry.*` event carries the inquiry, as a path from the body's root. */
const inquiryPath = ['data', 'attributes', 'payload', 'data'];

/**
 * A verification among an event's `included` objects (Persona's API schema): only what the summary
 * reads, loose, every part optional but the type. Anything else in `included` is passed over.
 */
const includedVerification = z.looseObject({
  type: z.string().check(z.startsWith('verification/')),
  attributes: z.optional(z.looseObject({ checks: z.optional(z.array(z.unknown())) })),
});
const includedCheck = z.looseObject({ name: z.string(), status: z.string() });

/**
 * The failed checks of the verifications in a webhook's `payload.included`, names only, at most
 * `flaggedChecksMax`, or undefined when it holds no verification. Never throws: a malformed
 * `included` (or a malformed object in it) tells nothing, and must not make Persona retry the event.
 */
export function flaggedChecksFromIncluded(included: unknown): FlaggedCheck[] | undefined {
  if (!Array.isArray(included)) return undefined;
  let verifications = 0;
  const checks: FlaggedCheck[] = [];
  for (const object of included) {
    const verification = includedVerification.safeParse(object);
    if (!verification.success) continue;
    verifications += 1;
    const type = verification.data.type.slice('verification/'.length);
    if (!personaIdentifierPattern.test(type)) continue;
    for (const value of verification.data.attributes?.checks ?? []) {
      const check = includedCheck.safeParse(value);
      if (!check.success || check.data.status !== 'failed') continue;
      const name = check.data.name;
      if (!personaIdentifierPattern.test(name)) continue;
      if (checks.some((known) => known.type === type && known.name === name)) continue;
      if (checks.length < flaggedChecksMax) checks.push({ type, name });
    }
  }
  return verifications === 0 ? undefined : checks;
}

/** The verified webhook body (parsed JSON) as the bus event the webhook publishes. */
export function receivedFromWebhook(json: unknown): WebhookBodyReading {
  const envelope = personaWebhookEvent.safeParse(json);
  if (!envelope.success) return { kind: 'invalid', issues: envelope.error.issues };
  const { id, attributes } = envelope.data.data;
  if (statusForEvent(attributes.name) === undefined) return { kind: 'unmapped', name: attributes.name };
  const resource = personaInquiryResource.safeParse(attributes.payload.data);
  if (!resource.success) {
    const issues = resource.error.issues.map((issue) => ({
      ...issue,
      path: [...inquiryPath, ...issue.path],
    }));
    return { kind: 'invalid', issues };
  }
  // Only these fields travel: the payload may hold personal data and could exceed 256 KB.
  const flaggedChecks = flaggedChecksFromIncluded(attributes.payload.included);
  return {
    kind: 'event',
    event: {
      eventId: id,
      name: attributes.name,
      createdAt: normaliseInstant(attributes['created-at']),
      inquiryId: resource.data.id,
      inquiryStatus: resource.data.attributes.status,
      referenceId: resource.data.attributes['reference-id'],
      ...(flaggedChecks === undefined ? {} : { flaggedChecks }),
    },
  };
}

/** The bus event (already reduced and normalised) as the use case's input. */
export function personaEventFromReceived(detail: PersonaEventReceived): PersonaEvent {
  return {
    eventId: detail.eventId,
    name: detail.name,
    createdAt: detail.createdAt,
    inquiry: { id: detail.inquiryId, referenceId: detail.referenceId },
    ...(detail.flaggedChecks === undefined ? {} : { flaggedChecks: detail.flaggedChecks }),
  };
}
