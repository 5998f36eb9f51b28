import { randomUUID } from 'node:crypto';
import { createServiceRequestRoute, type ServiceRequestAccepted } from '#contracts/service-request.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbOrganizations } from '#lambdas/adapters/dynamodb-organizations.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbServiceRequests } from '#lambdas/adapters/dynamodb-service-requests.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { tableName } from '#lambdas/config.ts';
import { requestService } from '#lambdas/domain/organization/service-requests.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { NotQueuedError } from '#lambdas/http/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// An approved member asks operations for a quick action (ADR 0088): stored for the organization,
// ServiceRequestSubmitted published (NotifyServiceRequest emails operations), answered 202 with
// the request; the organization's open request for the action when there is one.

const events = createEventPublisher();
const request = requestService({
  requests: new DynamoDbServiceRequests(documentClient, tableName('submissions')),
  organizations: new DynamoDbOrganizations(documentClient, tableName('submissions')),
  kyc: new DynamoDbKycStateReader(documentClient, tableName('kycState')),
  limiter: new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock),
  events: {
    publish: (batch) =>
      events.publish(batch).catch((error: unknown) => {
        throw new NotQueuedError('The request could not be sent to our team. Please try again.', {
          cause: error,
        });
      }),
  },
  clock: systemClock,
  newId: randomUUID,
});

export const handler = httpHandler({ route: createServiceRequestRoute }, async ({ body, event, caller }) => {
  const organizationId = event.pathParameters?.organizationId ?? '';
  const answer = await request({ caller, organizationId, action: body.action });
  logger.info('service request', {
    organizationId,
    serviceRequestId: answer.request.requestId,
    action: answer.request.action,
    created: answer.created,
  });
  if (answer.created) countMetric('ServiceRequested');
  return { status: 202, body: answer satisfies ServiceRequestAccepted };
});
