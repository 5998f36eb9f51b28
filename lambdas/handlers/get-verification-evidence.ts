import { userId as userIdSchema } from '#contracts/common.ts';
import { getVerificationEvidenceRoute } from '#contracts/verification-evidence.ts';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycStateReader } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { createPersonaClient } from '#lambdas/adapters/persona-client.ts';
import { tableName } from '#lambdas/config.ts';
import { VerificationNotFoundError } from '#lambdas/domain/kyc/errors.ts';
import { getVerificationEvidence } from '#lambdas/domain/kyc/verification-evidence.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

// A card's "Persona checks" (ADR 0082): the current inquiry's verifications and the checks that
// failed, read from Persona when a reviewer opens them. Nothing is written.

const evidence = getVerificationEvidence({
  store: new DynamoDbKycStateReader(documentClient, tableName('kycState')),
  persona: createPersonaClient(),
});

export const handler = httpHandler({ route: getVerificationEvidenceRoute }, async ({ event }) => {
  const userId = event.pathParameters?.userId ?? '';
  // No account has an id outside the contract's bounds, and a longer one is no valid table key.
  if (!userIdSchema.safeParse(userId).success) throw new VerificationNotFoundError();
  return { status: 200, body: await evidence(userId) };
});
