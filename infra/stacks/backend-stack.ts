import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
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
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Function as LambdaFunctionResource } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { applyGrants, type GrantTargets } from '#infra/api/grants.ts';
import { PlatformFunction } from '#infra/api/platform-function.ts';
import { Observability } from '#infra/observability/observability-construct.ts';
import type { StageConfig } from '#infra/stage-config.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { isAuth0M2mKey } from '#lambdas/grants.ts';
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

export class BackendStack extends Stack {
  readonly api: HttpApi;
  readonly bus: EventBus;
  /** `<api id>.execute-api.<region>.amazonaws.com`: CloudFront's origin for `/api/*`. */
  readonly apiDomain: string;
  readonly observability: Observability;

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
    // Auth0's issuer (a custom domain, if the tenant has one): API Gateway's authorizer and the
    // handlers' own token check use the same. The Management API lives only on the tenant's
    // canonical domain, whatever domain users sign in at.
    const issuer = `https://${config.auth0.domain}/`;
    const environment = {
      AUTH0_DOMAIN: config.auth0.tenantDomain,
      AUTH0_ISSUER: issuer,
      AUTH0_AUDIENCE: config.auth0.audience,
      CLAIMS_NAMESPACE: config.auth0.claimsNamespace,
      PERSONA_API_URL: config.persona.apiUrl,
      PERSONA_TEMPLATE_ID: config.persona.templateId,
      PERSONA_ENVIRONMENT_ID: config.persona.environmentId,
      OPERATIONS_EMAIL: config.email.operationsAddress,
      // Unset on the first deploy of a stage without a custom domain (its CloudFront host is not
      // known yet): the functions that write links fail until the second deploy sets it.
      ...(config.siteUrl ? { APP_URL: config.siteUrl } : {}),
    };
    const functions: { id: string; fn: LambdaFunctionResource; logGroup: LogGroup }[] = [];
    const makeFunction = (
      id: string,
      def: (typeof routes)[number] | (typeof eventRules)[number],
      async?: ConstructorParameters<typeof PlatformFunction>[2]['async'],
    ) => {
      const fn = new PlatformFunction(this, id, {
        ...(async ? { async } : {}),
        handler: def.handler,
        logRetention: props.logRetention,
        environment: { ...environment, ...('environment' in def ? def.environment : {}) },
        ...(def.timeoutSeconds ? { timeoutSeconds: def.timeoutSeconds } : {}),
        ...('memoryMb' in def && def.memoryMb ? { memoryMb: def.memoryMb } : {}),
        ...(def.reservedConcurrency ? { reservedConcurrency: def.reservedConcurrency } : {}),
      });
      applyGrants(fn.function, def.grants, targets);
      functions.push({ id, fn: fn.function, logGroup: fn.logGroup });
      return fn.function;
    };

    // HTTP API, with its access log and the default throttle on its one ($default) stage.
    this.api = new HttpApi(this, 'HttpApi', { createDefaultStage: false });
    const accessLogs = new LogGroup(this, 'HttpApiAccessLogs', { retention: props.logRetention });
    const httpStage = new HttpStage(this, 'HttpApiStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: defaultThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });
    this.apiDomain = `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    const authorizer = new HttpJwtAuthorizer('Auth0', issuer, {
      jwtAudience: [config.auth0.audience],
    });
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const route of routes) {
      const fn = makeFunction(route.id, route);
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
                ? `${route.method} ${route.path} is public by design (DESIGN section 3); API Gateway throttling limits it.`
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

    // Event rules: each target retries, then lands in its own encrypted dead-letter queue.
    // EventBridge invokes Lambda asynchronously: the rule's retry policy and DLQ cover delivery
    // (throttling, service errors); once Lambda accepts the event, a failing function is retried by
    // Lambda itself and then sent to the function's on-failure destination. Both land in the rule's
    // one queue, so an operator looks in one place (docs/operating.md explains the two shapes).
    const deadLetterQueues: { id: string; queue: Queue }[] = [];
    for (const def of eventRules) {
      const deadLetterQueue = new Queue(this, `${def.id}DeadLetters`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      for (const id of ['AwsSolutions-SQS3', 'Serverless-SQSRedrivePolicy']) {
        Validations.of(deadLetterQueue).acknowledge({
          id,
          reason: 'This queue is the dead-letter queue of a rule target; nothing consumes it automatically.',
        });
      }
      deadLetterQueues.push({ id: def.id, queue: deadLetterQueue });
      const fn = makeFunction(def.id, def, {
        onFailure: new SqsDestination(deadLetterQueue),
        // Lambda's own retries (1 and 2 minutes apart) absorb short Auth0/SES outages; a scheduled
        // rule runs again next minute anyway, so its retries would only overlap the next run.
        retryAttempts: def.schedule ? 0 : 2,
        maxEventAge: Duration.hours(def.schedule ? 1 : 6),
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

    this.observability = new Observability(this, 'Observability', {
      api: this.api,
      functions,
      deadLetterQueues,
      webhookFunctionId: 'ReceivePersonaWebhook',
      auth0FunctionIds: [...routes, ...eventRules]
        .filter((def) => def.grants.some((g) => g.kind === 'secret' && isAuth0M2mKey(g.secret)))
        .map((def) => def.id),
      ...(config.alarmEmail ? { alarmEmail: config.alarmEmail } : {}),
      alarmNamePrefix: `Platform-${config.stage}`,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
    new CfnOutput(this, 'EventBusName', { value: this.bus.eventBusName });
  }
}
