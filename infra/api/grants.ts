import { Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { domainEvents } from '#contracts/events.ts';
import type { RealtimeApi } from '#infra/realtime/realtime-api.ts';
import { functionEnv } from '#lambdas/environment.ts';
import { type Grant, type SecretKey, secretEnvVars, type TableAccess } from '#lambdas/grants.ts';
import { type TableKey, tables as tableDefs } from '#lambdas/tables.ts';

// Turns the grants declared in routes.ts / event-rules.ts into the narrowest IAM statements and
// the environment variables that name the resources, together, so they cannot drift apart.

const reads = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
export const tableActions: Record<TableAccess, string[]> = {
  read: reads,
  put: ['dynamodb:PutItem'],
  readPut: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
  readWrite: [...reads, 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  putUpdate: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
  update: ['dynamodb:UpdateItem'],
  readWriteDelete: [...reads, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
};

export interface GrantTargets {
  tables: Record<TableKey, ITableV2>;
  bus: IEventBus;
  /** The realtime API (AppSync Events) the push functions publish to. */
  realtime: RealtimeApi;
  secrets: Record<SecretKey, ISecret>;
  /** `sandboxRecipients`: identities SES checks as recipients while the account is in its sandbox. */
  email: {
    domain: string;
    sender: string;
    configurationSetName: string;
    sandboxRecipients: readonly string[];
  };
}

export function applyGrants(fn: NodejsFunction, grants: Grant[], targets: GrantTargets) {
  for (const grant of grants) {
    switch (grant.kind) {
      case 'table': {
        const table = targets.tables[grant.table];
        // Indexes by name, not `index/*`: a grant never covers an index added later by accident.
        const indexArns = grant.indexes
          ? tableDefs[grant.table].indexes.map((index) => `${table.tableArn}/index/${index.name}`)
          : [];
        const resources = [table.tableArn, ...indexArns];
        // Every key the request names must carry the prefix; no action granted here lacks a key.
        const conditions = grant.keyPrefixes
          ? {
              'ForAllValues:StringLike': {
                'dynamodb:LeadingKeys': grant.keyPrefixes.map((prefix) => `${prefix}*`),
              },
            }
          : undefined;
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: tableActions[grant.access],
            resources,
            ...(conditions ? { conditions } : {}),
          }),
        );
        fn.addEnvironment(tableDefs[grant.table].envVar, table.tableName);
        break;
      }
      case 'eventBus': {
        // EventBridge checks each entry of a PutEvents call against both conditions.
        const sources = [...new Set(grant.publishes.map((detailType) => domainEvents[detailType].source))];
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['events:PutEvents'],
            resources: [targets.bus.eventBusArn],
            conditions: {
              StringEquals: { 'events:source': sources, 'events:detail-type': [...grant.publishes] },
            },
          }),
        );
        fn.addEnvironment(functionEnv.eventBusName, targets.bus.eventBusName);
        break;
      }
      case 'email': {
        const { account, region, partition } = Stack.of(fn);
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: [
              `arn:${partition}:ses:${region}:${account}:identity/${targets.email.domain}`,
              `arn:${partition}:ses:${region}:${account}:configuration-set/${targets.email.configurationSetName}`,
              ...targets.email.sandboxRecipients.map(
                (identity) => `arn:${partition}:ses:${region}:${account}:identity/${identity}`,
              ),
            ],
            conditions: { StringEquals: { 'ses:FromAddress': targets.email.sender } },
          }),
        );
        fn.addEnvironment(functionEnv.sesSender, targets.email.sender);
        fn.addEnvironment(functionEnv.sesConfigurationSet, targets.email.configurationSetName);
        break;
      }
      case 'realtimePublish':
        // One namespace, publish only: the function can neither subscribe nor connect.
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['appsync:EventPublish'],
            resources: [targets.realtime.namespaceArn(grant.namespace)],
          }),
        );
        fn.addEnvironment(functionEnv.realtimeHttpDomain, targets.realtime.api.httpDns);
        break;
      case 'secret':
        targets.secrets[grant.secret].grantRead(fn);
        fn.addEnvironment(secretEnvVars[grant.secret], targets.secrets[grant.secret].secretArn);
        break;
    }
  }
}
