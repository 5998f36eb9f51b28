import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ApiStack } from '#infra/stacks/api-stack.ts';
import { DataStack } from '#infra/stacks/data-stack.ts';
import { exampleStages, parseStageConfig } from '#infra/stage-config.ts';

// Composition only: parse the stage config, build the stacks.
const app = new App();
const stageName = String(app.node.tryGetContext('stage') ?? 'dev');
const raw = app.node.tryGetContext(`stages`)?.[stageName] ?? exampleStages[stageName];
if (!raw)
  throw new Error(
    `Unknown stage "${stageName}": add it to cdk.json context "stages" or infra/stage-config.ts`,
  );
const config = parseStageConfig(raw);

const env = { region: config.region, ...(config.account ? { account: config.account } : {}) };
const prefix = `Platform-${config.stage}`;
const data = new DataStack(app, `${prefix}-Data`, { env });
new ApiStack(app, `${prefix}-Api`, {
  env,
  data: data.data,
  auth0: config.auth0,
  logRetention: RetentionDays.ONE_YEAR,
});
