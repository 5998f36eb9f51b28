import { serviceRequestSubmitted } from '#contracts/events.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbOnceMarker } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { notifyServiceRequest } from '#lambdas/domain/account/notify.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// EventBridge target for ServiceRequestSubmitted (ADR 0088): tells operations, once per request.

const notify = notifyServiceRequest({
  mailer: createMailer(),
  marker: new DynamoDbOnceMarker(documentClient, tableName('submissions'), 'NOTIFIED', systemClock),
  operationsEmail: requireEnv('operationsEmail'),
});

export const handler = eventHandler(
  { name: 'ServiceRequestSubmitted', detail: serviceRequestSubmitted },
  async (detail, event) => {
    const outcome = await notify(event.id, detail);
    logger.info('service request notification', {
      organizationId: detail.organizationId,
      serviceRequestId: detail.requestId,
      outcome,
    });
    if (outcome === 'sent') countMetric('ServiceRequestNotificationSent');
  },
);
