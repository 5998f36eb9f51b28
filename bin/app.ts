import { App } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BackendStack } from '#infra/stacks/backend-stack.ts';
import { DataStack } from '#infra/stacks/data-stack.ts';
import { exampleStages, parseStageConfig } from '#infra/stage-config.ts';

// Composition only: parse the stage config, build the stacks.
const app = new App();
const stageName = String(app.node.tryGetContext('stage') ?? 'dev');
const raw = app.node.tryGetContext('stages')?.[stageName] ?? exampleStages[stageName];
if (!raw)
  throw new Error(
    `Unknown stage "${stageName}": add it to cdk.json context "stages" or infra/stage-config.ts`,
  );
const config = parseStageConfig(raw);

const env = { region: config.region, ...(config.account ? { account: config.account } : {}) };
const prefix = `Platform-${config.stage}`;
const data = new DataStack(app, `${prefix}-Data`, { env, emailDomain: config.email.domain });
new BackendStack(app, `${prefix}-Backend`, {
  env,
  config,
  targets: {
    tables: data.data.tables,
    secrets: data.secrets.secrets,
    email: {
      domain: config.email.domain,
      sender: config.email.sender,
      configurationSetName: data.email.configurationSetName,
    },
  },
  logRetention: config.logRetentionDays as RetentionDays,
});
