import { parseArgs } from 'node:util';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  DeletionRequestNotConfirmedError,
  DeletionRequestNotFoundError,
} from '#lambdas/domain/data-rights/erase.ts';
import { configFromEnv, configFromStackFile, type EraseConfig } from './data-erase/config.ts';
import { describeResult, runErase } from './data-erase/run.ts';

// npm run data:erase -- --request <id> [--stack .local/stack.json] [--dry-run]
// Carries out a data deletion request with the operator's credentials (docs/decisions/0008).

// Operators may run this on Node 20; the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** The request was never confirmed by its address's owner (docs/operating.md). */
const unconfirmedExitCode = 3;

const usage = 'Usage: npm run data:erase -- --request <requestId> [--stack .local/stack.json] [--dry-run]';

async function readSecret(secretId: string): Promise<string> {
  const client = new SecretsManagerClient({});
  try {
    const answer = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (answer.SecretString === undefined) throw new Error(`Secret ${secretId} has no string value`);
    return answer.SecretString;
  } finally {
    client.destroy();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      request: { type: 'string' },
      stack: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (!values.request) {
    console.error(usage);
    return 2;
  }
  const config: EraseConfig = values.stack
    ? await configFromStackFile(values.stack)
    : await configFromEnv(process.env, readSecret);
  try {
    const result = await runErase(config, values.request, { dryRun: values['dry-run'] });
    console.log(describeResult(result));
    return 0;
  } catch (error) {
    if (error instanceof DeletionRequestNotFoundError) {
      console.error(error.message);
      return 1;
    }
    if (error instanceof DeletionRequestNotConfirmedError) {
      console.error(error.message);
      return unconfirmedExitCode;
    }
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  },
);
