import { allowVerificationAttemptRoute, type NewAttemptResponse } from '#contracts/admin-verifications.ts';
import { userId as userIdSchema } from '#contracts/common.ts';
import { maxVerificationAttempts } from '#contracts/kyc-reasons.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { tableName } from '#lambdas/config.ts';
import { allowNewAttempt } from '#lambdas/domain/kyc/decide-verification.ts';
import { VerificationNotFoundError } from '#lambdas/domain/kyc/errors.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';

const allow = allowNewAttempt({
  store: new DynamoDbKycStore(documentClient, tableName('kycState'), {
    auditTable: tableName('adminAuditLog'),
  }),
  audit: new DynamoDbAdminAuditLog(documentClient, tableName('adminAuditLog')),
  clock: systemClock,
});

export const handler = httpHandler(
  { route: allowVerificationAttemptRoute },
  async ({ body, event, caller, requestId }) => {
    const userId = event.pathParameters?.userId ?? '';
    if (!userIdSchema.safeParse(userId).success) throw new VerificationNotFoundError();
    const result = await allow({ adminId: caller.userId, userId, reason: body.reason, requestId });
    // The reason stays in the table's history.
    logger.info('new verification attempt allowed by admin', {
      subject: userId,
      attempt: result.attempt,
      changed: result.changed,
    });
    return {
      status: 200,
      body: {
        userId,
        kycStatus: result.status,
        newAttemptAllowed: true,
        attempt: result.attempt,
        maxAttempts: maxVerificationAttempts,
      } satisfies NewAttemptResponse,
    };
  },
);
