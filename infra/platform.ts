import type { App, Environment } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BackendStack } from '#infra/stacks/backend-stack.ts';
import { DataStack } from '#infra/stacks/data-stack.ts';
import type { StageConfig } from '#infra/stage-config.ts';

/** The product's stacks for one stage: stateful data, then the stateless backend that uses it. */
export function buildPlatform(app: App, config: StageConfig, env: Environment = { region: config.region }) {
  const prefix = `Platform-${config.stage}`;
  const data = new DataStack(app, `${prefix}-Data`, { env, emailDomain: config.email.domain });
  const backend = new BackendStack(app, `${prefix}-Backend`, {
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
  return { data, backend };
}
