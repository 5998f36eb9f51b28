import * as z from 'zod/mini';
import { route } from './route.ts';

// Persona's webhook event (JSON:API, kebab-case keys). Unlike our own contracts these objects are
// loose: Persona adds attributes without notice, and refusing an event we cannot fully describe
// would make Persona retry it for two days. Only the fields the backend reads are required.

const nonEmpty = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

/** The envelope every event has: id, name, time. The payload depends on the event name. */
export const personaWebhookEvent = z.looseObject({
  data: z.looseObject({
    type: z.literal('event'),
    id: nonEmpty(200),
    attributes: z.looseObject({
      name: nonEmpty(200),
      'created-at': z.iso.datetime({ offset: true }),
      payload: z.looseObject({ data: z.unknown() }),
    }),
  }),
});
export type PersonaWebhookEvent = z.infer<typeof personaWebhookEvent>;

/**
 * The longest inquiry reference id the backend reads. Ours are users' ids (an Auth0 `sub`), far
 * shorter; a longer one names nobody here and is never used as a key (ADR 0071). Not refused by the
 * schema: Persona would retry a refused event for two days.
 */
export const personaReferenceIdMaxLength = 256;

/** `data.attributes.payload.data` of `inquiry.*` events: the inquiry as it was when the event fired. */
export const personaInquiryResource = z.looseObject({
  type: z.literal('inquiry'),
  id: nonEmpty(200),
  attributes: z.looseObject({
    status: nonEmpty(100),
    'reference-id': z.nullable(z.string()),
  }),
});
export type PersonaInquiryResource = z.infer<typeof personaInquiryResource>;

/**
 * The inquiry statuses Persona documents (`data.attributes.status`). The backend reads the field as
 * a plain string, since Persona may add statuses; the local emulator sets only these.
 */
export type PersonaInquiryStatus =
  | 'created'
  | 'pending'
  | 'completed'
  | 'failed'
  | 'expired'
  | 'needs_review'
  | 'approved'
  | 'declined';

/** The answer Persona needs (any 2xx counts; the body is for people reading logs). */
export const personaWebhookResponse = z.object({ received: z.literal(true) });
export type PersonaWebhookResponse = z.infer<typeof personaWebhookResponse>;

/**
 * Persona's webhook events: with related objects in `included` (documents, selfies, reports), an
 * event can exceed 256 KB, and a refused one is retried for about 51 hours, then dropped. 2 MiB is
 * eight times that and stays inside Lambda's 6 MB invocation payload even base64-encoded (2.7 MiB).
 */
export const personaWebhookMaxBodyBytes = 2 * 1024 * 1024;

export const receivePersonaWebhookRoute = route('ReceivePersonaWebhook', {
  auth: 'persona-signature',
  body: personaWebhookEvent,
  response: personaWebhookResponse,
  successStatus: 200,
  problems: ['invalidSignature', 'serviceUnavailable'],
  maxBodyBytes: personaWebhookMaxBodyBytes,
});
