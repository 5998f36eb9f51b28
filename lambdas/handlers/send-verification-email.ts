import type { VerificationEmailResponse } from '#contracts/me.ts';
import { getUserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { tableName } from '#lambdas/config.ts';
import { sendVerificationEmail } from '#lambdas/domain/account/send-verification-email.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const limiter = new DynamoDbRateLimiter(documentClient, tableName('submissions'), systemClock);

export const handler = httpHandler({ route: 'SendVerificationEmail' }, async ({ caller }) => {
  // Only ever the caller: the user id comes from the token, the route takes no body.
  const result = await sendVerificationEmail({
    users: await getUserDirectory('auth0VerificationEmail'),
    limiter,
  })(caller.userId);
  if (result.outcome === 'already_verified') {
    return {
      status: 200,
      body: { success: true, alreadyVerified: true } satisfies VerificationEmailResponse,
    };
  }
  countMetric('VerificationEmailSent');
  return { status: 202, body: { success: true } satisfies VerificationEmailResponse };
});
