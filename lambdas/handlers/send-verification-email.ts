import { sendVerificationEmailRoute, type VerificationEmailResponse } from '#contracts/verification-email.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { tableName } from '#lambdas/config.ts';
import { requestVerificationEmail } from '#lambdas/domain/account/send-verification-email.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { NotQueuedError } from '#lambdas/http/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const events = createEventPublisher();
const request = requestVerificationEmail({
  limiter: new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock),
  events: {
    publish: (batch) =>
      events.publish(batch).catch((error: unknown) => {
        throw new NotQueuedError('The verification email could not be queued. Please try again.', {
          cause: error,
        });
      }),
  },
});

export const handler = httpHandler({ route: sendVerificationEmailRoute }, async ({ caller }) => {
  // Only ever the caller: the user id comes from the token, the route takes no body.
  const result = await request(caller);
  if (result.outcome === 'already_verified') {
    return {
      status: 200,
      body: { success: true, alreadyVerified: true } satisfies VerificationEmailResponse,
    };
  }
  countMetric('VerificationEmailQueued');
  return { status: 202, body: { success: true } satisfies VerificationEmailResponse };
});
