import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnStage, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { applyGrants, type GrantTargets } from '#infra/api/grants.ts';
import { PlatformFunction } from '#infra/api/platform-function.ts';
import type { StageConfig } from '#infra/stage-config.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { routes } from '#lambdas/routes.ts';

export interface BackendStackProps extends StackProps {
  config: StageConfig;
  targets: Omit<GrantTargets, 'bus'>;
  logRetention: RetentionDays;
}

/**
 * The stateless backend: the event bus and its rules (from lambdas/event-rules.ts) and the HTTP
 * API (from lambdas/routes.ts), one function per route or rule.
 */
export class BackendStack extends Stack {
  readonly api: HttpApi;
  readonly bus: EventBus;

  constructor(scope: Construct, id: string, props: BackendStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.bus = new EventBus(this, 'Bus');
    this.bus.archive('Archive', {
      description: 'Every platform event, for replay',
      eventPattern: { source: [{ prefix: 'platform.' }] as unknown as string[] },
      retention: Duration.days(365),
    });
    const targets: GrantTargets = { ...props.targets, bus: this.bus };
    const environment = {
      AUTH0_DOMAIN: config.auth0.domain,
      AUTH0_AUDIENCE: config.auth0.audience,
      CLAIMS_NAMESPACE: config.auth0.claimsNamespace,
      PERSONA_API_URL: config.persona.apiUrl,
      PERSONA_TEMPLATE_ID: config.persona.templateId,
      PERSONA_ENVIRONMENT_ID: config.persona.environmentId,
      APP_URL: config.siteUrl,
      OPERATIONS_EMAIL: config.email.operationsAddress,
    };
    const makeFunction = (id: string, def: (typeof routes)[number] | (typeof eventRules)[number]) => {
      const fn = new PlatformFunction(this, id, {
        handler: def.handler,
        logRetention: props.logRetention,
        environment,
        ...(def.timeoutSeconds ? { timeoutSeconds: def.timeoutSeconds } : {}),
        ...('memoryMb' in def && def.memoryMb ? { memoryMb: def.memoryMb } : {}),
        ...(def.reservedConcurrency ? { reservedConcurrency: def.reservedConcurrency } : {}),
      });
      applyGrants(fn.function, def.grants, targets);
      return fn.function;
    };

    // HTTP API
    this.api = new HttpApi(this, 'HttpApi', { createDefaultStage: true });
    const authorizer = new HttpJwtAuthorizer('Auth0', `https://${config.auth0.domain}/`, {
      jwtAudience: [config.auth0.audience],
    });
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const route of routes) {
      const fn = makeFunction(route.id, route);
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.id}Integration`, fn),
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

    // Event rules: each target retries, then lands in its own encrypted dead-letter queue.
    for (const def of eventRules) {
      const fn = makeFunction(def.id, def);
      const deadLetterQueue = new Queue(this, `${def.id}DeadLetters`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      new Rule(this, `${def.id}Rule`, {
        description: def.description,
        ...(def.pattern
          ? {
              eventBus: this.bus,
              eventPattern: {
                source: def.pattern.source,
                detailType: def.pattern['detail-type'],
                ...(def.pattern.detail ? { detail: def.pattern.detail } : {}),
              },
            }
          : { schedule: Schedule.rate(Duration.minutes(def.schedule.rateMinutes)) }),
        targets: [
          new LambdaFunction(fn, {
            deadLetterQueue,
            retryAttempts: def.retry.maximumRetryAttempts,
            maxEventAge: Duration.seconds(def.retry.maximumEventAgeSeconds),
          }),
        ],
      });
    }

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
    new CfnOutput(this, 'EventBusName', { value: this.bus.eventBusName });
  }
}
