import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { buildPlatform } from '#infra/platform.ts';
import { exampleStages, parseStageConfig } from '#infra/stage-config.ts';

// Composition only: parse the stage config, build the stacks, attach cdk-nag. A stage comes from
// context ("stages" in cdk.json or -c) or the examples in infra/stage-config.ts.
const app = new App();
const stageName = String(app.node.tryGetContext('stage') ?? 'dev');
const raw = app.node.tryGetContext('stages')?.[stageName] ?? exampleStages[stageName];
if (!raw)
  throw new Error(
    `Unknown stage "${stageName}": add it to cdk.json context "stages" or infra/stage-config.ts`,
  );
const config = parseStageConfig(raw);
// Set only while rotating the origin secret (docs/operating.md): it makes the deploy update CloudFront.
const originSecretVersion = app.node.tryGetContext('originSecretVersion') as string | undefined;
buildPlatform(
  app,
  config,
  { region: config.region, ...(config.account ? { account: config.account } : {}) },
  originSecretVersion ? { originSecretVersionId: String(originSecretVersion) } : {},
);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
