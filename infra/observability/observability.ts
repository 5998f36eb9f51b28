import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type LogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { metricsNamespace, serviceName } from '#infra/api/platform-function.ts';
import { deadLetterQueue } from '#infra/dead-letter-queue.ts';
import { funnelMetrics, managementApiMetrics } from '#infra/observability/funnel-metrics.ts';
import { viewerAddressMissingMetric } from '#lambdas/http/edge.ts';

/** Namespace of the metrics this construct derives from log lines. */
export const operationsNamespace = 'Platform/Operations';

/**
 * Log patterns the alarms count. They match what the code writes today:
 * - lambdas/runtime/logger.ts `securityEvent` logs `{"securityEvent":"signature_failed", ...}`;
 * - lambdas/adapters/auth0-user-directory.ts logs `{"message":"auth0 call failed", "status":429,
 *   "willRetry":...}` for every failed attempt of a rate-limited call, retried or final.
 */
export const logPatterns = {
  signatureFailed: '{ $.securityEvent = "signature_failed" }',
  auth0RateLimited: '{ ($.message = "auth0 call failed") && ($.status = 429) }',
} as const;

export const thresholds = {
  /** Percent of API requests answered 5xx over 5 minutes... */
  api5xxPercent: 1,
  /** ...counted only once there are this many requests (a single 5xx at night is not 100 %). */
  api5xxMinRequests: 20,
  /** Bad signatures in 5 minutes: a few are a misconfigured secret rotation, more is an attack. */
  signatureFailures: 10,
  /** Auth0 429s in 5 minutes: the tenant's Management API limit is being hit regularly. */
  auth0RateLimited: 5,
  /**
   * API requests without the viewer's IP in 5 minutes: the edge writes it on every request, so
   * one means the ViewerIp function is detached or broken (the ledger would record CloudFront).
   */
  viewerAddressMissing: 1,
} as const;

export interface ObservabilityProps {
  api: HttpApi;
  functions: { id: string; fn: LambdaFunction; logGroup: LogGroup }[];
  deadLetterQueues: { id: string; queue: Queue }[];
  /** Id of the Persona webhook function (its log group carries signature failures). */
  webhookFunctionId: string;
  /** Ids of the functions that call the Auth0 Management API. */
  auth0FunctionIds: string[];
  alarmEmail?: string;
  /**
   * Every alarm is named `<prefix>-<name>` (e.g. `Platform-prod-Api5xxRate`), the names
   * docs/operating.md uses; a generated name would not say which alarm it is.
   */
  alarmNamePrefix: string;
}

/** The operators' alarm topic, the alarms of docs/operating.md and the onboarding dashboard. */
export class Observability extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const period = Duration.minutes(5);

    // CloudWatch can only publish to an encrypted topic whose key lets it: the AWS-managed SNS key
    // does not, so the topic has its own key.
    const key = new Key(this, 'AlarmTopicKey', {
      description: 'Encrypts the platform alarm topic',
      enableKeyRotation: true,
    });
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: 'Platform alarms',
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) {
      const undelivered = deadLetterQueue(
        this,
        'AlarmEmailUndelivered',
        'This queue is the dead-letter queue of the alarm email subscription.',
      );
      this.topic.addSubscription(new EmailSubscription(props.alarmEmail, { deadLetterQueue: undelivered }));
    }
    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, options: ConstructorParameters<typeof Alarm>[2]) => {
      const created = new Alarm(this, alarmId, {
        alarmName: `${props.alarmNamePrefix}-${alarmId}`,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        ...options,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      return created;
    };

    // API 5xx rate.
    const requests = props.api.metricCount({ period, statistic: 'Sum' });
    const serverErrors = props.api.metricServerError({ period, statistic: 'Sum' });
    alarm('Api5xxRate', {
      alarmDescription: `More than ${thresholds.api5xxPercent}% of API requests failed with 5xx in 5 minutes (at least ${thresholds.api5xxMinRequests} requests)`,
      metric: new MathExpression({
        expression: `IF(requests >= ${thresholds.api5xxMinRequests}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        period,
        label: 'API 5xx %',
      }),
      threshold: thresholds.api5xxPercent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    // Per function: unhandled errors (handlers map expected failures to responses, so any Errors
    // datapoint is a crash, a timeout or an event target giving up) and throttles.
    for (const { id: fnId, fn } of props.functions) {
      alarm(`${fnId}Errors`, {
        alarmDescription: `${fnId}: the function failed (unhandled error or timeout)`,
        metric: fn.metricErrors({ period, statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
      alarm(`${fnId}Throttles`, {
        alarmDescription: `${fnId}: invocations were throttled (reserved or account concurrency exhausted)`,
        metric: fn.metricThrottles({ period, statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }

    // Any message in a dead-letter queue is an event that needs an operator (replay it).
    for (const { id: ruleId, queue } of props.deadLetterQueues) {
      alarm(`${ruleId}DeadLetters`, {
        alarmDescription: `${ruleId}: events are waiting in the dead-letter queue (see docs/operating.md)`,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      });
    }

    const logGroupOf = (fnId: string) => {
      const found = props.functions.find((f) => f.id === fnId);
      if (!found) throw new Error(`No function ${fnId} for a log metric filter`);
      return found.logGroup;
    };

    const signatureFailures = new Metric({
      namespace: operationsNamespace,
      metricName: 'WebhookSignatureFailures',
      period,
      statistic: 'Sum',
    });
    new MetricFilter(this, 'WebhookSignatureFailuresFilter', {
      logGroup: logGroupOf(props.webhookFunctionId),
      filterPattern: FilterPattern.literal(logPatterns.signatureFailed),
      metricNamespace: operationsNamespace,
      metricName: signatureFailures.metricName,
      metricValue: '1',
      defaultValue: 0,
    });
    alarm('WebhookSignatureFailures', {
      alarmDescription: `At least ${thresholds.signatureFailures} Persona webhooks with a bad signature in 5 minutes`,
      metric: signatureFailures,
      threshold: thresholds.signatureFailures,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });

    const auth0RateLimited = new Metric({
      namespace: operationsNamespace,
      metricName: 'Auth0RateLimited',
      period,
      statistic: 'Sum',
    });
    for (const fnId of props.auth0FunctionIds) {
      // One metric fed by every Auth0-calling function's log group.
      new MetricFilter(this, `${fnId}Auth0RateLimitedFilter`, {
        logGroup: logGroupOf(fnId),
        filterPattern: FilterPattern.literal(logPatterns.auth0RateLimited),
        metricNamespace: operationsNamespace,
        metricName: auth0RateLimited.metricName,
        metricValue: '1',
      });
    }
    alarm('Auth0RateLimited', {
      alarmDescription: `Auth0 answered 429 at least ${thresholds.auth0RateLimited} times in 5 minutes`,
      metric: auth0RateLimited,
      threshold: thresholds.auth0RateLimited,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });

    // Counted by the HTTP wrapper (lambdas/http/http-handler.ts) in every function's EMF metrics.
    alarm('ViewerAddressMissing', {
      alarmDescription:
        "API requests arrived without the viewer's IP (x-viewer-ip): the consent ledger and the per-IP limits record CloudFront's address instead (see docs/operating.md)",
      metric: new Metric({
        namespace: metricsNamespace,
        metricName: viewerAddressMissingMetric,
        dimensionsMap: { service: serviceName },
        period,
        statistic: 'Sum',
      }),
      threshold: thresholds.viewerAddressMissing,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });

    // The onboarding funnel. Business metrics are not alarmed: a quiet day is not an incident.
    const business = (metricName: string) =>
      new Metric({
        namespace: metricsNamespace,
        metricName,
        dimensionsMap: { service: serviceName },
        period: Duration.hours(1),
        statistic: 'Sum',
        label: metricName,
      });
    this.dashboard = new Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.days(7),
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# Onboarding\nRegistrations -> login instructions -> consent -> Persona -> decision -> Auth0 sync. Alarms and runbooks: docs/operating.md.',
        width: 24,
        height: 2,
      }),
    );
    for (const [title, names] of Object.entries(funnelMetrics)) {
      this.dashboard.addWidgets(
        new GraphWidget({ title, left: names.map(business), width: 24, height: 6, stacked: false }),
      );
    }
    // The tenant's one quota, by who spends it (ADR 0059): one line per purpose.
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Auth0 Management API calls and 429s per purpose',
        left: managementApiMetrics.map(
          (metricName) =>
            new MathExpression({
              expression: `SEARCH('{${metricsNamespace},Purpose,service} MetricName="${metricName}"', 'Sum', 60)`,
              label: metricName,
              period: Duration.minutes(1),
            }),
        ),
        width: 24,
        height: 6,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and 5xx',
        left: [requests],
        right: [serverErrors],
        width: 12,
      }),
      new GraphWidget({
        title: 'Webhook signature failures and Auth0 429s',
        left: [signatureFailures, auth0RateLimited],
        width: 12,
      }),
    );
  }
}
