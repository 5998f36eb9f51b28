import {
  type PersonaWebhookResponse,
  personaInquiryResource,
  personaWebhookEvent,
} from '#contracts/persona-webhook.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { getSecret } from '#lambdas/adapters/secrets.ts';
import { tableName } from '#lambdas/config.ts';
import { parseWebhookSecrets, verifyPersonaSignature } from '#lambdas/domain/kyc/persona-signature.ts';
import {
  normaliseInstant,
  type PersonaEvent,
  processPersonaEvent,
} from '#lambdas/domain/kyc/process-persona-event.ts';
import { statusForEvent } from '#lambdas/domain/kyc/status-mapping.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import type { HttpApiEvent } from '#lambdas/http/api-gateway.ts';
import { BadRequestError, PayloadTooLargeError, UnauthorizedError } from '#lambdas/http/errors.ts';
import { fieldErrors, httpHandler, maxBodyBytes } from '#lambdas/http/http-handler.ts';
import { logger, securityEvent } from '#lambdas/http/logger.ts';
import { countMetric } from '#lambdas/http/metrics.ts';

// Persona's signed events. No body schema in httpHandler: the signature is checked on the raw
// bytes first, and only a verified body is parsed.

const process_ = processPersonaEvent({
  store: new DynamoDbKycStore(documentClient, tableName('kycState')),
  events: createEventPublisher(),
  clock: systemClock,
});

const received: PersonaWebhookResponse = { received: true };

function rawBody(event: HttpApiEvent): Buffer {
  const raw = event.body ?? '';
  return event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
}

function parseEvent(body: Buffer): PersonaEvent {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new BadRequestError('The request body is not valid JSON.');
  }
  const envelope = personaWebhookEvent.safeParse(json);
  if (!envelope.success) {
    throw new BadRequestError('The event has invalid fields.', fieldErrors(envelope.error.issues));
  }
  const { id, attributes } = envelope.data.data;
  let inquiry: PersonaEvent['inquiry'] = null;
  if (statusForEvent(attributes.name) !== undefined) {
    const resource = personaInquiryResource.safeParse(attributes.payload.data);
    if (!resource.success) {
      const errors = fieldErrors(resource.error.issues).map((error) => ({
        ...error,
        field: `data.attributes.payload.data${error.field ? `.${error.field}` : ''}`,
      }));
      throw new BadRequestError('The event has invalid fields.', errors);
    }
    inquiry = { id: resource.data.id, referenceId: resource.data.attributes['reference-id'] };
  }
  return {
    eventId: id,
    name: attributes.name,
    createdAt: normaliseInstant(attributes['created-at']),
    inquiry,
  };
}

export const handler = httpHandler({}, async ({ event }) => {
  const body = rawBody(event);
  if (body.byteLength > maxBodyBytes) throw new PayloadTooLargeError(maxBodyBytes);
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
      sourceIp: event.requestContext.http.sourceIp,
      attemptsMade: event.headers['persona-webhook-attempts-made'],
    });
    throw new UnauthorizedError('The Persona-Signature header is missing or invalid.');
  }

  const personaEvent = parseEvent(body);
  const log = {
    eventId: personaEvent.eventId,
    eventName: personaEvent.name,
    inquiryId: personaEvent.inquiry?.id,
  };
  const result = await process_(personaEvent);
  countMetric('WebhookAccepted');
  switch (result.outcome) {
    case 'ignored':
      if (result.security) {
        securityEvent('webhook_ignored', { ...log, reason: result.reason });
      } else {
        logger.info('persona event ignored', { ...log, reason: result.reason });
      }
      break;
    case 'duplicate':
      countMetric('WebhookDuplicate');
      logger.info('persona event already processed', log);
      break;
    case 'stale':
      logger.info('persona event older than the last applied one: no change', log);
      break;
    case 'applied':
      if (result.changed) countMetric('KycStatusChanged');
      logger.info('persona event applied', { ...log, status: result.status, changed: result.changed });
      if (result.publish && !result.publish.published) {
        // The change and its outbox item are durable; the relay publishes it within a minute.
        logger.warn('publishing KycStatusChanged failed; left for the outbox relay', {
          ...log,
          error:
            result.publish.error instanceof Error
              ? result.publish.error.message
              : String(result.publish.error),
        });
      }
      break;
  }
  return { status: 200, body: received };
});
