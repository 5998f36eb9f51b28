import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { desiredTenant } from '#infra/auth0/provision/desired.ts';
import {
  createProvisioningClient,
  nextSteps,
  type ProvisioningTrail,
  provisionTenant,
} from '#infra/auth0/provision/provision.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { tables } from '#lambdas/tables.ts';
import { awsOperatorId } from './lib/operator.ts';
import { stageCommand } from './stage-command.ts';

// npm run auth0:provision -- --stage <name> [--dry-run]
// Creates or updates the stage's Auth0 applications, API, grant and post-login Action
// (docs/deploying.md, "Auth0").

const usage = `Usage: npm run auth0:provision -- --stage <name> [--dry-run] [--rewrite-action-secrets] [--cdk-json FILE]

  --stage                   the stage in cdk.json context "stages" or infra/stage-config.ts
  --dry-run                 print the plan and change nothing
  --rewrite-action-secrets  write the Action's secrets again (their values cannot be read back,
                            so a changed claims namespace is otherwise not seen)
  --cdk-json                where the stage config is read from (default: cdk.json)

Environment (the provisioning application, created once by hand: docs/deploying.md):
  AUTH0_DOMAIN         the tenant's canonical domain, e.g. platform-dev.eu.auth0.com
                       (default: the stage's auth0.tenantDomain, itself auth0.domain
                       when that is not a custom domain)
  AUTH0_CLIENT_ID      its client id
  AUTH0_CLIENT_SECRET  its client secret
  ADMIN_AUDIT_TABLE    the admin audit trail's table (the data stack's output AdminAuditTableName):
                       every apply is recorded there with your AWS principal (ADR 0078); a run
                       without it is refused before anything changes. Not needed for --dry-run.
                       AWS credentials from the default chain, with the data stack's
                       AuditTrailAppenderPolicy; the stage's region.

Exit status: 0 done (or planned), 1 failed, 2 usage error.`;

async function main(): Promise<number> {
  const command = stageCommand(usage, ['dry-run', 'rewrite-action-secrets']);
  if ('exit' in command) return command.exit;
  const { config, flags } = command;
  const domain = process.env.AUTH0_DOMAIN || config.auth0.tenantDomain;
  const clientId = process.env.AUTH0_CLIENT_ID;
  const clientSecret = process.env.AUTH0_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    console.error(`Set AUTH0_CLIENT_ID and AUTH0_CLIENT_SECRET (the provisioning application).\n\n${usage}`);
    return 2;
  }
  const dryRun = flags['dry-run'];
  const tableName = process.env[tables.adminAuditLog.envVar];
  if (!dryRun && !tableName) {
    console.error(
      `Set ${tables.adminAuditLog.envVar} to the admin audit trail's table, where this apply is recorded: the output AdminAuditTableName of the stack Platform-${config.stage}-Data (aws cloudformation describe-stacks --region ${config.region} --stack-name Platform-${config.stage}-Data). Nothing was read or changed; --dry-run needs no table.\n\n${usage}`,
    );
    return 2;
  }
  if (domain !== config.auth0.domain) {
    console.log(
      `Managing ${domain}; the stage's tokens are issued by ${config.auth0.domain} (a custom domain of the same tenant?).`,
    );
  }
  const desired = desiredTenant(config, { managementDomain: domain });
  const client = await createProvisioningClient({ domain, clientId, clientSecret });
  const log = (line: string) => console.log(line);
  const dynamodb = new DynamoDBClient({ region: config.region });
  try {
    let trail: ProvisioningTrail | undefined;
    if (!dryRun && tableName) {
      trail = {
        log: new DynamoDbAdminAuditLog(DynamoDBDocumentClient.from(dynamodb), tableName),
        operatorId: await awsOperatorId(config.region),
        command: [
          `npm run auth0:provision --stage ${config.stage}`,
          ...(flags['rewrite-action-secrets'] ? ['--rewrite-action-secrets'] : []),
        ].join(' '),
      };
    }
    const outcome = await provisionTenant(client, desired, {
      stage: config.stage,
      dryRun,
      rewriteActionSecrets: flags['rewrite-action-secrets'],
      log,
      ...(trail ? { trail } : {}),
    });
    if (outcome.result) log(`\nNext:\n${nextSteps(desired, outcome.result, config)}`);
    return 0;
  } finally {
    dynamodb.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
