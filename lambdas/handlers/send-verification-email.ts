import type { VerificationEmailResponse } from '#contracts/me.ts';
import { DirectoryUnavailableError, getUserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { tableName } from '#lambdas/config.ts';
import { sendVerificationEmail } from '#lambdas/domain/account/send-verification-email.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { HttpError, NotFoundError, TooManyRequestsError } from '#lambdas/http/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { securityEvent } from '#lambdas/http/logger.ts';
import { countMetric } from '#lambdas/http/metrics.ts';

const limiter = new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock);

export const handler = httpHandler({ auth: 'user' }, async ({ caller }) => {
  let result: Awaited<ReturnType<ReturnType<typeof sendVerificationEmail>>>;
  try {
    // Only ever the caller: the user id comes from the token, the route takes no body.
    result = await sendVerificationEmail({ users: await getUserDirectory(), limiter })(caller.userId);
  } catch (error) {
    if (error instanceof DirectoryUnavailableError) {
      throw new HttpError(503, 'Service Unavailable', 'Please try again in a minute.', undefined, {
        'retry-after': '30',
      });
    }
    throw error;
  }
  switch (result.outcome) {
    case 'user_missing':
      throw new NotFoundError('Your account no longer exists.');
    case 'already_verified':
      return {
        status: 200,
        body: { success: true, alreadyVerified: true } satisfies VerificationEmailResponse,
      };
    case 'rate_limited':
      securityEvent('rate_limited', { userId: caller.userId, action: 'verification-email' });
      throw new TooManyRequestsError(
        result.retryAfterSeconds,
        'A verification email was sent less than a minute ago. Check your inbox, or try again shortly.',
      );
    case 'sent':
      countMetric('VerificationEmailSent');
      return { status: 202, body: { success: true } satisfies VerificationEmailResponse };
  }
});
