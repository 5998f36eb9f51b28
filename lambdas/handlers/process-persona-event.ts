import type { Context } from 'aws-lambda';
import { personaEventReceived } from '#contracts/events.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { tableName } from '#lambdas/config.ts';
import { personaEventFromReceived } from '#lambdas/domain/kyc/persona-event.ts';
import type { KycStore } from '#lambdas/domain/kyc/ports.ts';
import { processPersonaEvent } from '#lambdas/domain/kyc/process-persona-event.ts';
import { type Clock, type EventPublisher, systemClock } from '#lambdas/domain/ports.ts';
import { type BusEvent, eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger, securityEvent } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// EventBridge target for PersonaEventReceived (published by receive-persona-webhook once the
// signature checked out): applies the event to the KYC state (ADR 0006). A thrown error makes
// EventBridge retry, then dead-letter, so only retryable failures (DynamoDB errors, a state that
// kept changing) are thrown; an invalid detail is logged and dropped. Duplicates and reordering
// resolve in the store's conditions, so a redelivered event changes nothing.

export type PersonaEventReceivedEvent = BusEvent;

export type ProcessPersonaEventHandler = (
  event: PersonaEventReceivedEvent,
  context: Context,
) => Promise<void>;

/** The handler over its ports; `handler` below wires the AWS adapters. */
export function createProcessPersonaEventHandler(deps: {
  store: KycStore;
  events: EventPublisher;
  clock: Clock;
}): ProcessPersonaEventHandler {
  const process_ = processPersonaEvent(deps);
  return eventHandler({ name: 'PersonaEventReceived', detail: personaEventReceived }, async (detail) => {
    const log = { eventId: detail.eventId, eventName: detail.name, inquiryId: detail.inquiryId };
    const result = await process_(personaEventFromReceived(detail));
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
      case 'held':
        countMetric('PersonaDecisionHeld');
        logger.info("persona decision after an admin's: recorded, the admin's decision stands", {
          ...log,
          status: result.status,
          personaStatus: result.personaStatus,
        });
        break;
      case 'applied':
        if (result.changed) countMetric('KycStatusChanged');
        logger.info('persona event applied', { ...log, status: result.status, changed: result.changed });
        if (result.publish && !result.publish.published) {
          // The change and its outbox item are durable; the relay publishes it within a minute.
          // Not thrown: a retry would find the event processed and publish nothing.
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
  });
}

export const handler = createProcessPersonaEventHandler({
  store: new DynamoDbKycStore(documentClient, tableName('kycState')),
  events: createEventPublisher(),
  clock: systemClock,
});
