import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  type IDestination,
  type Function as LambdaFunctionResource,
  LoggingFormat,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { envVars } from '#lambdas/environment.ts';
import type { eventRules } from '#lambdas/event-rules.ts';
import type { routes } from '#lambdas/routes.ts';

// The house default for every function: current Node runtime on arm64, minified ESM bundle with
// source maps, its own log group with retention, its own role (no managed policy: it may write to
// its own log group and nothing else until a grant says so), JSON logs, tracing, explicit timeout
// and memory.

/** Powertools `service`: the dimension of every business metric (the dashboard reads it). */
export const serviceName = 'platform-api';
/** CloudWatch namespace of the business metrics (lambdas/runtime/metrics.ts). */
export const metricsNamespace = 'Platform';

export interface PlatformFunctionProps {
  /** Module under lambdas/handlers/. */
  handler: string;
  logRetention: RetentionDays;
  timeoutSeconds?: number;
  memoryMb?: number;
  environment?: Record<string, string>;
  reservedConcurrency?: number;
  /**
   * For asynchronously invoked functions (event targets): where an invocation goes after Lambda's
   * own retries fail, and how many retries (0-2).
   */
  async?: { onFailure: IDestination; retryAttempts: number; maxEventAge: Duration };
}

/** A row of lambdas/routes.ts or lambdas/event-rules.ts: what its function is built from. */
export type FunctionDefinition = (typeof routes)[number] | (typeof eventRules)[number];

/**
 * Builds the function of one route or rule with the stack's environment and the row's grants
 * (BackendStack's, shared by the API and the event rules).
 */
export type MakeFunction = (
  id: string,
  def: FunctionDefinition,
  async?: PlatformFunctionProps['async'],
) => LambdaFunctionResource;

const handlersDir = fileURLToPath(new URL('../../lambdas/handlers/', import.meta.url));

/** Bundling shared with `npm run bench`, so the measured bundles are the deployed ones. */
export const lambdaBundling = {
  minify: true,
  sourceMap: true,
  target: 'node24',
  mainFields: ['module', 'main'],
  // The AWS SDK is bundled (pinned versions, smaller cold start); some of it still calls require().
  // NodejsFunction leaves `@aws-sdk/*` out by default on Node 18 and later (the runtime's copy):
  // an empty list keeps it in, so the deployed bundle is the one `npm run bench` measures.
  externalModules: [],
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  // Lambda supplies credentials in the environment: the rest of the default chain is dead weight.
  alias: {
    '@aws-sdk/credential-provider-node': fileURLToPath(
      new URL('../../lambdas/runtime/lambda-credentials.ts', import.meta.url),
    ),
  },
} as const;

export class PlatformFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: PlatformFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention });
    this.logGroup = logGroup;
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the ${props.handler} function`,
    });
    logGroup.grantWrite(role);
    this.function = new NodejsFunction(this, 'Function', {
      entry: `${handlersDir}${props.handler}.ts`,
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      role,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMb ?? 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? 10),
      logGroup,
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      ...(props.async
        ? {
            onFailure: props.async.onFailure,
            retryAttempts: props.async.retryAttempts,
            maxEventAge: props.async.maxEventAge,
          }
        : {}),
      loggingFormat: LoggingFormat.JSON,
      tracing: Tracing.ACTIVE,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...envVars({
          powertoolsServiceName: serviceName,
          powertoolsMetricsNamespace: metricsNamespace,
          powertoolsLogLevel: 'INFO',
        }),
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        minify: lambdaBundling.minify,
        sourceMap: lambdaBundling.sourceMap,
        target: lambdaBundling.target,
        mainFields: [...lambdaBundling.mainFields],
        externalModules: [...lambdaBundling.externalModules],
        banner: lambdaBundling.banner,
        esbuildArgs: Object.fromEntries(
          Object.entries(lambdaBundling.alias).map(([from, to]) => [`--alias:${from}`, to]),
        ),
      },
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
    });
    Validations.of(this.function).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: props.async
        ? 'Asynchronous failures go to an on-failure destination (SQS), which supersedes a function DLQ.'
        : 'Invoked synchronously by API Gateway: the caller gets the error; there is nothing to dead-letter.',
    });
  }
}
