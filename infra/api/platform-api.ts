import { Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { MakeFunction } from '#infra/api/platform-function.ts';
import { routes } from '#lambdas/routes.ts';

/** Every route's default throttle when routes.ts says nothing narrower (it always does today). */
export const defaultThrottle = { rateLimit: 20, burstLimit: 40 };

/** The HTTP API access-log line: JSON, one per request. */
export const accessLogFields = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  latency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
} as const;

export interface PlatformApiProps {
  /** Auth0's issuer, as the handlers' own token check uses it. */
  issuer: string;
  audience: string;
  logRetention: RetentionDays;
  makeFunction: MakeFunction;
}

/**
 * The HTTP API: one function, route and integration per row of lambdas/routes.ts, the JWT
 * authorizer on `user` and `admin` routes, each route's throttle, and the access log.
 *
 * It adds its resources to the scope it is given rather than being a construct of its own: a
 * wrapping construct would put its id into every resource's path, so every logical id would change
 * and a deployed stage would replace its API (CloudFront's origin), functions and log groups
 * (ADR 0051).
 */
export class PlatformApi {
  readonly api: HttpApi;
  /** `<api id>.execute-api.<region>.amazonaws.com`: CloudFront's origin for `/api/*`. */
  readonly apiDomain: string;

  constructor(scope: Construct, props: PlatformApiProps) {
    // HTTP API, with its access log and the default throttle on its one ($default) stage.
    this.api = new HttpApi(scope, 'HttpApi', { createDefaultStage: false });
    const accessLogs = new LogGroup(scope, 'HttpApiAccessLogs', { retention: props.logRetention });
    const httpStage = new HttpStage(scope, 'HttpApiStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: defaultThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });
    const stack = Stack.of(scope);
    this.apiDomain = `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    const authorizer = new HttpJwtAuthorizer('Auth0', props.issuer, {
      jwtAudience: [props.audience],
    });
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const route of routes) {
      const fn = props.makeFunction(route.id, route);
      const apiRoutes = this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.id}Integration`, fn),
        ...(route.auth === 'user' || route.auth === 'admin' ? { authorizer } : {}),
      });
      if (route.auth === 'public' || route.auth === 'persona-signature') {
        for (const apiRoute of apiRoutes)
          Validations.of(apiRoute).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason:
              route.auth === 'public'
                ? `${route.method} ${route.path} is public by design (docs/design.md section 3); API Gateway throttling limits it.`
                : 'Persona calls the webhook without a token; the handler verifies Persona-Signature (HMAC) before parsing.',
          });
      }
      routeSettings[`${route.method} ${route.path}`] = {
        ThrottlingRateLimit: route.throttle.rateLimit,
        ThrottlingBurstLimit: route.throttle.burstLimit,
      };
    }
    const stage = httpStage.node.defaultChild as CfnStage;
    stage.routeSettings = routeSettings;
  }
}
