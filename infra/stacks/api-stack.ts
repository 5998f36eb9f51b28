import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnStage, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { applyGrants } from '#infra/api/grants.ts';
import { PlatformFunction } from '#infra/api/platform-function.ts';
import type { DataTables } from '#infra/data/data-construct.ts';
import { routes } from '#lambdas/routes.ts';

export interface ApiStackProps extends StackProps {
  data: DataTables;
  auth0: { domain: string; audience: string; claimsNamespace: string };
  logRetention: RetentionDays;
}

/** The HTTP API, generated from lambdas/routes.ts: one function per route. */
export class ApiStack extends Stack {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    this.api = new HttpApi(this, 'HttpApi', { createDefaultStage: true });
    const authorizer = new HttpJwtAuthorizer('Auth0', `https://${props.auth0.domain}/`, {
      jwtAudience: [props.auth0.audience],
    });

    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const route of routes) {
      const fn = new PlatformFunction(this, route.id, {
        handler: route.handler,
        logRetention: props.logRetention,
        ...(route.timeoutSeconds ? { timeoutSeconds: route.timeoutSeconds } : {}),
        ...(route.memoryMb ? { memoryMb: route.memoryMb } : {}),
        environment: { CLAIMS_NAMESPACE: props.auth0.claimsNamespace },
      });
      applyGrants(fn.function, route.grants, { tables: props.data.tables });
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.id}Integration`, fn.function),
        ...(route.auth === 'user' || route.auth === 'admin' ? { authorizer } : {}),
      });
      routeSettings[`${route.method} ${route.path}`] = {
        ThrottlingRateLimit: route.throttle.rateLimit,
        ThrottlingBurstLimit: route.throttle.burstLimit,
      };
    }

    const stage = this.api.defaultStage?.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: 20, throttlingBurstLimit: 40 };
    stage.routeSettings = routeSettings;
    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
  }
}
