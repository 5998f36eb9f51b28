import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Role, roles } from '#contracts/kyc.ts';
import { loadStageConfig } from '#infra/auth0/provision/stage.ts';
import { createManagementApi, parseM2mCredentials } from '#lambdas/adapters/auth0-management-api.ts';
import { Auth0UserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import {
  type ChangeRoleDeps,
  type ChangeRoleResult,
  changeRole,
  parseRoleReason,
  RoleChangeNotRecordedError,
  RoleNotChangedError,
  UnknownUserError,
} from '#lambdas/domain/admin-audit/change-role.ts';
import { secretEnvVars } from '#lambdas/grants.ts';
import { tables } from '#lambdas/tables.ts';
import type { StackInfo } from '#local/stack.ts';
import { awsOperatorId, localOperatorId } from '../lib/operator.ts';

// `npm run admin:role`: an operator makes someone an admin or takes the role away, and the change
// is appended to the admin audit trail (ADR 0078). Importable: the tests call `main`.

const kycSyncSecretEnv = secretEnvVars.auth0KycSync;
const tableEnv = tables.adminAuditLog.envVar;

export const usage = `Usage: npm run admin:role -- (--stage NAME | --stack .local/stack.json)
       --user 'auth0|...' --role admin|user --reason "why" [--cdk-json FILE]

  --stage   an AWS stage (cdk.json context "stages" or infra/stage-config.ts)
  --stack   the local stack instead (its identity provider and DynamoDB Local)
  --user    the person's Auth0 user id (their token's sub)
  --role    admin or user
  --reason  why, 3 to 1000 characters: recorded in the admin audit trail

Environment for --stage (AWS credentials from the default chain, region from the stage):
  ${tableEnv}          the admin audit trail's table: the data stack's output AdminAuditTableName
  ${kycSyncSecretEnv}  the auth0KycSync secret (ARN or name), whose application holds exactly
                               read:users and update:users_app_metadata
  AUTH0_DOMAIN                 the tenant's canonical domain (default: the stage's auth0.tenantDomain)
Your AWS principal needs the data stack's policies AuditTrailAppenderPolicyArn and
RoleOperatorPolicyArn (docs/operating.md, "Changing someone's role").

Reads the user, sets app_metadata.role, appends a role_changed entry (who: your AWS principal);
if the entry cannot be appended, the old role is put back.
Exit status: 0 done (or nothing to change), 1 failed (unknown user, Auth0 or the trail), 2 usage error.`;

export interface RoleCommand {
  target: { stage: string; cdkJson: string } | { stack: string };
  userId: string;
  role: Role;
  reason: string;
}

/** The command line, or the usage error to print (exit 2); `help` for --help (exit 0). */
export function parseRoleArgs(argv: string[]): RoleCommand | { error: string } | { help: true } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        stage: { type: 'string' },
        stack: { type: 'string' },
        'cdk-json': { type: 'string', default: 'cdk.json' },
        user: { type: 'string' },
        role: { type: 'string' },
        reason: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const stage = text('stage');
  const stack = text('stack');
  if ((stage === undefined) === (stack === undefined)) {
    return { error: 'Give either --stage NAME (an AWS stage) or --stack FILE (the local stack).' };
  }
  const userId = text('user')?.trim();
  if (!userId) return { error: "--user is required: the person's Auth0 user id, e.g. 'auth0|64f...'." };
  const role = text('role');
  if (!(roles as readonly string[]).includes(role ?? '')) {
    return { error: `--role must be ${roles.join(' or ')}${role === undefined ? '' : `, not "${role}"`}.` };
  }
  const reason = parseRoleReason(text('reason'));
  if (reason === undefined) {
    return {
      error: '--reason is required: why, in 3 to 1000 characters (it is kept in the admin audit trail).',
    };
  }
  return {
    target: stage !== undefined ? { stage, cdkJson: String(values['cdk-json']) } : { stack: stack as string },
    userId,
    role: role as Role,
    reason,
  };
}

/** A usage or configuration problem found before anything was read or changed (exit 2). */
export class RoleUsageError extends Error {}

export interface RoleConfig {
  dynamodb: {
    endpoint?: string | undefined;
    region?: string | undefined;
    credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
    table: string;
  };
  auth0: { domain: string; baseUrl?: string | undefined; clientId: string; clientSecret: string };
  operatorId: string;
}

/**
 * The local stack: its DynamoDB Local table and the identity provider's auth0KycSync client, the
 * application with exactly read:users and update:users_app_metadata (ADR 0034).
 */
export function configFromStack(info: StackInfo): RoleConfig {
  const table = info.dynamodb.tables[tables.adminAuditLog.logicalName];
  if (!table) throw new RoleUsageError(`The stack file has no ${tables.adminAuditLog.logicalName} table.`);
  const issuer = new URL(info.idp.issuer);
  const client = info.idp.m2mClients.auth0KycSync;
  return {
    dynamodb: {
      endpoint: info.dynamodb.endpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      table,
    },
    auth0: {
      domain: issuer.host,
      baseUrl: issuer.origin,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
    },
    operatorId: localOperatorId(),
  };
}

export interface AwsSources {
  readSecret(secretId: string, region: string): Promise<string>;
  operatorId(region: string): Promise<string>;
}

const awsSources: AwsSources = {
  async readSecret(secretId, region) {
    const client = new SecretsManagerClient({ region });
    try {
      const answer = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
      if (answer.SecretString === undefined) throw new Error(`Secret ${secretId} has no string value`);
      return answer.SecretString;
    } finally {
      client.destroy();
    }
  },
  operatorId: (region) => awsOperatorId(region),
};

/** An AWS stage: the table and the secret from the environment, read with the operator's credentials. */
export async function configFromStage(
  target: { stage: string; cdkJson: string },
  env: NodeJS.ProcessEnv,
  sources: AwsSources = awsSources,
): Promise<RoleConfig> {
  let stage: ReturnType<typeof loadStageConfig>;
  try {
    stage = loadStageConfig(target.stage, target.cdkJson);
  } catch (error) {
    throw new RoleUsageError(error instanceof Error ? error.message : String(error));
  }
  const table = env[tableEnv];
  if (!table) {
    throw new RoleUsageError(
      `Set ${tableEnv} to the admin audit trail's table: the output AdminAuditTableName of the stack Platform-${stage.stage}-Data (aws cloudformation describe-stacks --region ${stage.region} --stack-name Platform-${stage.stage}-Data). Nothing was changed.`,
    );
  }
  const secretId = env[kycSyncSecretEnv];
  if (!secretId) {
    throw new RoleUsageError(
      `Set ${kycSyncSecretEnv} to the auth0KycSync secret of Platform-${stage.stage}-Data (the secret whose logical id starts with SecretsAuth0KycSync: aws cloudformation list-stack-resources --region ${stage.region} --stack-name Platform-${stage.stage}-Data). Nothing was changed.`,
    );
  }
  const credentials = parseM2mCredentials(await sources.readSecret(secretId, stage.region), 'auth0KycSync');
  return {
    dynamodb: { region: stage.region, table },
    auth0: {
      domain: env.AUTH0_DOMAIN || stage.auth0.tenantDomain,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
    },
    operatorId: await sources.operatorId(stage.region),
  };
}

/** The use case's adapters for a config; `wrapTrail` lets a test put a failing trail in. */
export function buildRoleDeps(
  config: RoleConfig,
  wrapTrail: (trail: ChangeRoleDeps['trail']) => ChangeRoleDeps['trail'] = (trail) => trail,
): ChangeRoleDeps & { close(): void } {
  const raw = new DynamoDBClient({
    ...(config.dynamodb.endpoint ? { endpoint: config.dynamodb.endpoint } : {}),
    ...(config.dynamodb.region ? { region: config.dynamodb.region } : {}),
    ...(config.dynamodb.credentials ? { credentials: config.dynamodb.credentials } : {}),
  });
  return {
    // An operator's command, not a Lambda: the default policy's 10 s per call is plenty.
    users: new Auth0UserDirectory(createManagementApi({ ...config.auth0, timeoutMs: 15_000 })),
    trail: wrapTrail(new DynamoDbAdminAuditLog(DynamoDBDocumentClient.from(raw), config.dynamodb.table)),
    operatorId: config.operatorId,
    close: () => raw.destroy(),
  };
}

/** What the operator reads after a change or a no-op. */
export function describeRoleResult(result: ChangeRoleResult): string {
  if (result.kind === 'unchanged') {
    return `${result.userId} is already ${result.role}: nothing to change, nothing appended.`;
  }
  const { entry } = result;
  const lines = [
    `${result.userId} is now ${result.to} (was ${result.from}).`,
    `Admin audit trail: entry #${entry.sequence} (${entry.action}, by ${entry.actorId}), hash ${entry.hash}.`,
  ];
  if (result.to === 'admin') {
    lines.push(
      'The role claim comes with their next sign-in: Auth0 asks a new admin to enrol a second factor, and a session started before the change gets no admin token on refresh (sign in again).',
    );
  } else {
    lines.push(
      'Tokens already issued keep the admin claim until they expire (access tokens: 1 hour). To end them sooner, revoke their refresh tokens and sessions in the Auth0 dashboard (User Management > Users > the user).',
    );
  }
  return lines.join('\n');
}

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

export interface MainOptions {
  /** Replaces the AWS calls (the secret and the caller's identity) in tests. */
  aws?: AwsSources;
  wrapTrail?: (trail: ChangeRoleDeps['trail']) => ChangeRoleDeps['trail'];
}

/** Runs the command; resolves to the exit status. */
export async function main(argv: string[], io: Io, options: MainOptions = {}): Promise<number> {
  const command = parseRoleArgs(argv);
  if ('help' in command) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  if ('error' in command) {
    io.stderr(`${command.error}\n\n${usage}\n`);
    return 2;
  }
  let config: RoleConfig;
  try {
    config =
      'stack' in command.target
        ? configFromStack(JSON.parse(await readFile(command.target.stack, 'utf8')) as StackInfo)
        : await configFromStage(command.target, io.env, options.aws);
  } catch (error) {
    if (error instanceof RoleUsageError) {
      io.stderr(`${error.message}\n`);
      return 2;
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && 'stack' in command.target) {
      io.stderr(
        `No stack file ${command.target.stack}: start the local stack (npm start) or give its path.\n`,
      );
      return 2;
    }
    io.stderr(`Could not read the configuration; nothing was changed: ${messageOf(error)}\n`);
    return 1;
  }
  const deps = buildRoleDeps(config, options.wrapTrail);
  try {
    const result = await changeRole(deps)({
      userId: command.userId,
      role: command.role,
      reason: command.reason,
    });
    io.stdout(`${describeRoleResult(result)}\n`);
    return 0;
  } catch (error) {
    if (
      error instanceof UnknownUserError ||
      error instanceof RoleNotChangedError ||
      error instanceof RoleChangeNotRecordedError
    ) {
      io.stderr(`${error.message}\n`);
    } else {
      io.stderr(`The role change failed before anything was changed: ${messageOf(error)}\n`);
    }
    return 1;
  } finally {
    deps.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
