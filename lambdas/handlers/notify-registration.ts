import { registrationSubmitted } from '#contracts/events.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbOnceMarker } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { notifyRegistration } from '#lambdas/domain/account/notify.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// EventBridge target for RegistrationSubmitted: tells operations, once per event id.

const notify = notifyRegistration({
  mailer: createMailer(),
  marker: new DynamoDbOnceMarker(documentClient, tableName('submissions'), 'NOTIFIED', systemClock),
  operationsEmail: requireEnv('operationsEmail'),
});

export const handler = eventHandler(
  { name: 'RegistrationSubmitted', detail: registrationSubmitted },
  async (detail, event) => {
    const outcome = await notify(event.id, detail);
    logger.info('registration notification', { userId: detail.userId, outcome });
    if (outcome === 'sent') countMetric('RegistrationNotificationSent');
  },
);
