import { App } from 'aws-cdk-lib';
import { buildPlatform } from '#infra/platform.ts';
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
buildPlatform(app, config, { region: config.region, ...(config.account ? { account: config.account } : {}) });
