import type { Context } from 'aws-lambda';
// The subset of the API Gateway HTTP API (payload format 2.0) event and result the handlers use.

export type JwtClaimValue = string | number | boolean | string[];

export interface HttpApiEvent {
  version: '2.0';
  routeKey: string;
  rawPath: string;
  rawQueryString: string;
  cookies?: string[];
  headers: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined>;
  pathParameters?: Record<string, string | undefined>;
  requestContext: {
    accountId: string;
    apiId: string;
    domainName: string;
    domainPrefix: string;
    requestId: string;
    routeKey: string;
    stage: string;
    time: string;
    timeEpoch: number;
    http: { method: string; path: string; protocol: string; sourceIp: string; userAgent: string };
    authorizer?: { jwt: { claims: Record<string, JwtClaimValue>; scopes: string[] | null } };
  };
  body?: string;
  isBase64Encoded: boolean;
}

export interface HttpApiResult {
  statusCode: number;
  headers?: Record<string, string>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
}

/** The Lambda context, as `@types/aws-lambda` types it (Powertools' `addContext` reads it whole). */
export type LambdaContext = Context;
