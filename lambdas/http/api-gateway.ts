// The API Gateway HTTP API (payload format 2.0) event and result, as `@types/aws-lambda` types
// them, narrowed where every route of this API agrees; the local gateway builds the same types.
import type {
  APIGatewayEventRequestContextJWTAuthorizer,
  APIGatewayEventRequestContextV2,
  APIGatewayProxyEventV2WithRequestContext,
  APIGatewayProxyStructuredResultV2,
} from 'aws-lambda';

export type JwtClaimValue = APIGatewayEventRequestContextJWTAuthorizer['jwt']['claims'][string];

/** One event type for every route: the JWT authorizer's context is there only on protected routes. */
export type HttpApiEvent = APIGatewayProxyEventV2WithRequestContext<
  APIGatewayEventRequestContextV2 & { authorizer?: APIGatewayEventRequestContextJWTAuthorizer }
>;

/** What every handler returns: always a status code, and headers as strings. */
export type HttpApiResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers?: Record<string, string>;
};
