import {
  auditTrailLimit,
  getVerificationAuditTrailRoute,
  type VerificationAuditTrailResponse,
} from '#contracts/admin-audit.ts';
import { userId as userIdSchema } from '#contracts/common.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { tableName } from '#lambdas/config.ts';
import { VerificationNotFoundError } from '#lambdas/domain/kyc/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

// The review screen's trail of one verification (ADR 0078): the admin trail's entries about the
// person, newest `auditTrailLimit`, oldest first. A person nobody acted on has an empty trail.

const trail = new DynamoDbAdminAuditLog(documentClient, tableName('adminAuditLog'));

export const handler = httpHandler({ route: getVerificationAuditTrailRoute }, async ({ event }) => {
  const userId = event.pathParameters?.userId ?? '';
  // No account has an id outside the contract's bounds, and a longer one is no valid index key.
  if (!userIdSchema.safeParse(userId).success) throw new VerificationNotFoundError();
  const { entries, truncated } = await trail.listByTarget(userId, auditTrailLimit);
  return { status: 200, body: { userId, entries, truncated } satisfies VerificationAuditTrailResponse };
});
