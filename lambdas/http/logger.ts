import { Logger } from '@aws-lambda-powertools/logger';

// One logger per container; handlers append the request id per invocation.
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'platform-api' });
