import { registrationSubmitted } from '#contracts/events.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbOnceMarker } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { createMailer } from '#lambdas/adapters/ses-mailer.ts';
import { requireEnv, tableName } from '#lambdas/config.ts';
import { notifyRegistration } from '#lambdas/domain/account/notify.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import type { LambdaContext } from '#lambdas/http/api-gateway.ts';
import { logger } from '#lambdas/http/logger.ts';
import { countMetric, flushMetrics } from '#lambdas/http/metrics.ts';

// EventBridge target for RegistrationSubmitted: tells operations, once per event id.

interface RegistrationSubmittedEvent {
  id: string;
  detail: unknown;
}

const notify = notifyRegistration({
  mailer: createMailer(),
  marker: new DynamoDbOnceMarker(documentClient, tableName('submissions'), 'NOTIFIED', systemClock),
  operationsEmail: requireEnv('OPERATIONS_EMAIL'),
});

export const handler = async (event: RegistrationSubmittedEvent, context: LambdaContext): Promise<void> => {
  logger.appendKeys({ eventId: event.id, requestId: context.awsRequestId });
  try {
    const parsed = registrationSubmitted.safeParse(event.detail);
    if (!parsed.success || !event.id) {
      logger.error('invalid RegistrationSubmitted event dropped', { issues: parsed.error?.issues });
      countMetric('InvalidEventDropped');
      return;
    }
    const outcome = await notify(event.id, parsed.data);
    logger.info('registration notification', { userId: parsed.data.userId, outcome });
    if (outcome === 'sent') countMetric('RegistrationNotificationSent');
  } finally {
    flushMetrics();
    logger.removeKeys(['eventId', 'requestId']);
  }
};
