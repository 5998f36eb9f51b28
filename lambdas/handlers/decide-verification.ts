import {
  decideVerificationRoute,
  type VerificationDecisionResponse,
} from '#contracts/admin-verifications.ts';
import { userId as userIdSchema } from '#contracts/common.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { optionalEnv, tableName } from '#lambdas/config.ts';
import { decideVerification } from '#lambdas/domain/kyc/decide-verification.ts';
import { VerificationNotFoundError } from '#lambdas/domain/kyc/errors.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

const decide = decideVerification({
  store: new DynamoDbKycStore(documentClient, tableName('kycState'), {
    auditTable: tableName('adminAuditLog'),
  }),
  audit: new DynamoDbAdminAuditLog(documentClient, tableName('adminAuditLog')),
  // Read at each decision: the stage sets it (ADR 0080).
  fourEyes: () => optionalEnv('fourEyes') === 'true',
  registrations: new DynamoDbRegistrationStore(documentClient, tableName('submissions')),
  events: createEventPublisher(),
  clock: systemClock,
});

export const handler = httpHandler(
  { route: decideVerificationRoute },
  async ({ body, event, caller, requestId }) => {
    const userId = event.pathParameters?.userId ?? '';
    // No account has an id outside the contract's bounds, and a longer one is no valid table key.
    if (!userIdSchema.safeParse(userId).success) throw new VerificationNotFoundError();
    const result = await decide({ adminId: caller.userId, userId, decision: body, requestId });
    if (result.changed) countMetric('KycStatusChanged');
    // The note stays in the table's history; the log gets only who decided what, and the code.
    logger.info(
      result.outcome === 'proposed'
        ? 'verification decision proposed by admin, awaiting a second admin'
        : 'verification decided by admin',
      { subject: userId, status: result.status, reasonCode: body.reasonCode, changed: result.changed },
    );
    if (result.publish && !result.publish.published) {
      logger.warn('publishing KycStatusChanged failed; left for the outbox relay', { subject: userId });
    }
    return {
      status: 200,
      body: {
        userId,
        kycStatus: result.status,
        reasonCode: body.reasonCode,
        outcome: result.outcome,
      } satisfies VerificationDecisionResponse,
    };
  },
);
