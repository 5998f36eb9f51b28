import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StorageUnavailableError } from '#lambdas/domain/errors.ts';

// One client per container. The endpoint comes from the SDK's own configuration
// (`AWS_ENDPOINT_URL_DYNAMODB` locally, the regional endpoint in AWS).

/**
 * A DynamoDB call gives up within about 8 s (3 attempts of at most 2.5 s each, plus backoff), so a
 * request that meets an outage is answered 503 inside a route's 10 s Lambda timeout and API
 * Gateway's 29 s, instead of hanging until the platform cuts it off with a bare 503/504.
 * DynamoDB answers single-item calls in milliseconds; 2.5 s leaves room for a busy DynamoDB Local
 * on a small machine without turning slowness into refusals.
 */
export const dynamoDbTimeouts = { connectionTimeoutMs: 1_000, requestTimeoutMs: 2_500, maxAttempts: 3 };

const networkErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const unavailableNames = new Set([
  'TimeoutError',
  'RequestTimeout',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
]);

/** An error that says DynamoDB is not answering (network, timeout, throttling, 5xx), after the SDK's own retries. */
export function isStorageOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const e = error as Error & { code?: string; $fault?: string; $metadata?: { httpStatusCode?: number } };
  if (e.code !== undefined && networkErrorCodes.has(e.code)) return true;
  if (unavailableNames.has(e.name)) return true;
  if (e.$fault === 'server') return true;
  return (e.$metadata?.httpStatusCode ?? 0) >= 500;
}

export function createDynamoDbClient(timeouts = dynamoDbTimeouts): DynamoDBClient {
  const client = new DynamoDBClient({
    maxAttempts: timeouts.maxAttempts,
    requestHandler: {
      connectionTimeout: timeouts.connectionTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      // Without it the SDK only logs a warning and keeps waiting for a frozen endpoint.
      throwOnRequestTimeout: true,
    },
  });
  // Outermost, so it sees the error the retries gave up on: one domain error for "try again later"
  // (503 with Retry-After on HTTP routes; a retry by EventBridge for event targets).
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (!isStorageOutage(error)) throw error;
        throw new StorageUnavailableError(String(context.commandName ?? 'DynamoDB call'), { cause: error });
      }
    },
    { step: 'initialize', name: 'storageOutage', priority: 'high' },
  );
  return client;
}

export const documentClient = DynamoDBDocumentClient.from(createDynamoDbClient(), {
  marshallOptions: { removeUndefinedValues: true },
});
