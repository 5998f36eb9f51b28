import type { PersonaEventReceived } from '#contracts/events.ts';
import { type PersonaWebhookResponse, receivePersonaWebhookRoute } from '#contracts/persona-webhook.ts';
import { errorMessages } from '#contracts/problem-messages.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { getSecret } from '#lambdas/adapters/secrets.ts';
import { receivedFromWebhook } from '#lambdas/domain/kyc/persona-event.ts';
import { parseWebhookSecrets, verifyPersonaSignature } from '#lambdas/domain/kyc/persona-signature.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { InvalidRequestError, InvalidSignatureError, NotQueuedError } from '#lambdas/http/errors.ts';
import { bodyBytes, fieldErrors, httpHandler } from '#lambdas/http/http-handler.ts';
import { logger, securityEvent } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// Persona's signed events, acknowledged fast (ADR 0006): verify the signature on the raw bytes,
// parse, then hand a small PersonaEventReceived to the bus and answer. The state transition runs
// in process-persona-event, with EventBridge's retries and dead-letter queue. No body schema in
// httpHandler: only a verified body is parsed.

const events = createEventPublisher();

const received: PersonaWebhookResponse = { received: true };

/**
 * The verified body as the bus event, or `{ ignored }` for an event name that changes no status
 * (inquiry.created, inquiry.started, ...): those are acknowledged and dropped here.
 */
function parseEvent(body: Buffer): { ignored: string } | PersonaEventReceived {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new InvalidRequestError(errorMessages.invalidJson);
  }
  const reading = receivedFromWebhook(json);
  if (reading.kind === 'invalid') {
    throw new InvalidRequestError(errorMessages.invalidEventFields, fieldErrors(reading.issues));
  }
  return reading.kind === 'unmapped' ? { ignored: reading.name } : reading.event;
}

export const handler = httpHandler({ route: receivePersonaWebhookRoute }, async ({ event, viewerIp }) => {
  // The wrapper has already refused a body over the route's limit (routes.ts: 2 MiB here).
  const body = bodyBytes(event);
  const check = verifyPersonaSignature({
    header: event.headers['persona-signature'],
    body,
    secrets: parseWebhookSecrets(await getSecret('personaWebhookSecret')),
    nowSeconds: Math.floor(systemClock.now().getTime() / 1000),
  });
  if (!check.ok) {
    countMetric('WebhookRejectedSignature');
    securityEvent('signature_failed', {
      reason: check.reason,
      sourceIp: viewerIp,
      attemptsMade: event.headers['persona-webhook-attempts-made'],
    });
    throw new InvalidSignatureError(errorMessages.invalidSignature);
  }

  const parsed = parseEvent(body);
  if ('ignored' in parsed) {
    countMetric('WebhookAccepted');
    logger.info('persona event ignored', { eventName: parsed.ignored, reason: 'unmapped_event' });
    return { status: 200, body: received };
  }
  const log = { eventId: parsed.eventId, eventName: parsed.name, inquiryId: parsed.inquiryId };
  try {
    await events.publish([{ detailType: 'PersonaEventReceived', detail: parsed }]);
  } catch (error) {
    // Nothing is lost: Persona retries a non-2xx answer for about 51 hours.
    countMetric('WebhookPublishFailed');
    logger.error('publishing PersonaEventReceived failed; Persona will retry', {
      ...log,
      error: error instanceof Error ? error.message : String(error),
    });
    throw new NotQueuedError('The event could not be queued. Try again later.', { cause: error });
  }
  countMetric('WebhookAccepted');
  logger.info('persona event queued', log);
  return { status: 200, body: received };
});
