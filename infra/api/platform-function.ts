import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

// The house default for every function: current Node runtime on arm64, minified ESM bundle with
// source maps, its own log group with retention, JSON logs, tracing, explicit timeout and memory.

export interface PlatformFunctionProps {
  /** Module under lambdas/handlers/. */
  handler: string;
  logRetention: RetentionDays;
  timeoutSeconds?: number;
  memoryMb?: number;
  environment?: Record<string, string>;
  reservedConcurrency?: number;
}

const handlersDir = fileURLToPath(new URL('../../lambdas/handlers/', import.meta.url));

/** Bundling shared with `npm run bench`, so the measured bundles are the deployed ones. */
export const lambdaBundling = {
  minify: true,
  sourceMap: true,
  target: 'node22',
  mainFields: ['module', 'main'],
  // The AWS SDK is bundled (pinned versions, smaller cold start); some of it still calls require().
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

  constructor(scope: Construct, id: string, props: PlatformFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention });
    this.function = new NodejsFunction(this, 'Function', {
      entry: `${handlersDir}${props.handler}.ts`,
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMb ?? 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? 10),
      logGroup,
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      loggingFormat: LoggingFormat.JSON,
      tracing: Tracing.ACTIVE,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'platform-api',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        minify: lambdaBundling.minify,
        sourceMap: lambdaBundling.sourceMap,
        target: lambdaBundling.target,
        mainFields: [...lambdaBundling.mainFields],
        banner: lambdaBundling.banner,
        esbuildArgs: Object.fromEntries(
          Object.entries(lambdaBundling.alias).map(([from, to]) => [`--alias:${from}`, to]),
        ),
      },
    });
  }
}
