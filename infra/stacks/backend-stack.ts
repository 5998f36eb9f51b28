import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { EventBus } from 'aws-cdk-lib/aws-events';
import type { Function as LambdaFunctionResource } from 'aws-cdk-lib/aws-lambda';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { applyGrants, type GrantTargets } from '#infra/api/grants.ts';
import { PlatformApi } from '#infra/api/platform-api.ts';
import { type MakeFunction, PlatformFunction } from '#infra/api/platform-function.ts';
import { PlatformEventRules } from '#infra/events/platform-event-rules.ts';
import { Observability } from '#infra/observability/observability.ts';
import { RealtimeApi } from '#infra/realtime/realtime-api.ts';
import type { StageConfig } from '#infra/stage-config.ts';
import { envVars } from '#lambdas/environment.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { isAuth0M2mKey } from '#lambdas/grants.ts';
import { routes } from '#lambdas/routes.ts';

export interface BackendStackProps extends StackProps {
  config: StageConfig;
  targets: Omit<GrantTargets, 'bus' | 'realtime'>;
  logRetention: RetentionDays;
}

/**
 * The stateless backend: the event bus, the HTTP API (routes from lambdas/routes.ts), the event
 * rules (from lambdas/event-rules.ts), one function per route or rule, and their alarms.
 */
export class BackendStack extends Stack {
  readonly api: HttpApi;
  readonly bus: EventBus;
  /** `<api id>.execute-api.<region>.amazonaws.com`: CloudFront's origin for `/api/*`. */
  readonly apiDomain: string;
  readonly observability: Observability;
  /** The realtime API (AppSync Events) that pushes decisions to the status screens (ADR 0060). */
  readonly realtime: RealtimeApi;

  constructor(scope: Construct, id: string, props: BackendStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.bus = new EventBus(this, 'Bus');
    this.bus.archive('Archive', {
      description: 'Every platform event, for replay',
      eventPattern: { source: [{ prefix: 'platform.' }] as unknown as string[] },
      retention: Duration.days(365),
    });
    // Auth0's issuer (a custom domain, if the tenant has one): API Gateway's authorizer, the
    // handlers' own token check and the realtime API use the same. The Management API lives only on
    // the tenant's canonical domain, whatever domain users sign in at.
    const issuer = `https://${config.auth0.domain}/`;
    this.realtime = new RealtimeApi(this, 'Realtime', {
      issuer,
      audience: config.auth0.audience,
      logRetention: props.logRetention,
    });
    const targets: GrantTargets = { ...props.targets, bus: this.bus, realtime: this.realtime };
    const environment = envVars({
      auth0Domain: config.auth0.tenantDomain,
      auth0Issuer: issuer,
      auth0Audience: config.auth0.audience,
      auth0SpaClientId: config.auth0.spaClientId,
      claimsNamespace: config.auth0.claimsNamespace,
      personaApiUrl: config.persona.apiUrl,
      personaTemplateId: config.persona.templateId,
      operationsEmail: config.email.operationsAddress,
      fourEyes: String(config.fourEyes),
      // Unset on the first deploy of a stage without a custom domain (its CloudFront host is not
      // known yet): the functions that write links fail until the second deploy sets it.
      ...(config.siteUrl ? { appUrl: config.siteUrl } : {}),
    });
    const functions: { id: string; fn: LambdaFunctionResource; logGroup: LogGroup }[] = [];
    const makeFunction: MakeFunction = (id, def, async) => {
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

    const platformApi = new PlatformApi(this, {
      issuer,
      audience: config.auth0.audience,
      logRetention: props.logRetention,
      makeFunction,
    });
    this.api = platformApi.api;
    this.apiDomain = platformApi.apiDomain;
    const { deadLetterQueues } = new PlatformEventRules(this, { bus: this.bus, makeFunction });

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
    new CfnOutput(this, 'RealtimeHttpDomain', { value: this.realtime.api.httpDns });
    new CfnOutput(this, 'RealtimeDomain', { value: this.realtime.api.realtimeDns });
  }
}
