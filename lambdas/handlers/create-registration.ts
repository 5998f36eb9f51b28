import { randomUUID } from 'node:crypto';
import type { SuccessResponse } from '#contracts/common.ts';
import { negotiateLocale } from '#contracts/locale.ts';
import { createRegistrationRoute } from '#contracts/registration.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { tableName } from '#lambdas/config.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { acceptRegistration } from '#lambdas/domain/registration/accept-registration.ts';
import { NotQueuedError } from '#lambdas/http/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger, securityEvent } from '#lambdas/runtime/logger.ts';

const events = createEventPublisher();

const accept = acceptRegistration({
  store: new DynamoDbRegistrationStore(documentClient, tableName('submissions')),
  events: {
    // Stored but not queued: the person sends the form again (a new request, the same outcome).
    publish: (batch) =>
      events.publish(batch).catch((error: unknown) => {
        throw new NotQueuedError('The registration could not be queued. Please try again.', { cause: error });
      }),
  },
  clock: systemClock,
  newId: randomUUID,
});

// The same work and the same answer for every accepted request, whether the address has an
// account or not: the account work runs in process-registration (ADR 0033).
export const handler = httpHandler(
  { route: createRegistrationRoute },
  async ({ body, event, requestId, viewerIp }) => {
    const result = await accept(body, {
      requestId,
      userAgent: event.headers['user-agent'] ?? event.requestContext.http.userAgent,
      ipAddress: viewerIp,
      // The registration's language (issue 28): the wizard showed the agreements in it, their
      // records name it, and the login instructions and later emails are written in it.
      locale: negotiateLocale(event.headers['accept-language']),
    });
    if (result.outcome === 'honeypot') securityEvent('honeypot_triggered', { route: 'registrations' });
    else logger.info('registration accepted', { registrationId: result.registrationId });
    return { status: 201, body: { success: true } satisfies SuccessResponse };
  },
);
