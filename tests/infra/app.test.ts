import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { tableKeys, tables } from '#infra/data/tables.ts';
import { buildPlatform } from '#infra/platform.ts';
import { exampleStages, parseStageConfig } from '#infra/stage-config.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { routes } from '#lambdas/routes.ts';

// Synthesis without bundling: the stacks must follow the shared route, rule and table definitions.
function synth() {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const { data, backend } = buildPlatform(app, parseStageConfig(exampleStages.dev), {
    region: 'eu-central-1',
    account: '111111111111',
  });
  return { data: Template.fromStack(data), backend: Template.fromStack(backend) };
}

const { data, backend } = synth();
const statements = Object.values(backend.findResources('AWS::IAM::Policy')).flatMap(
  (policy) =>
    policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
);
const actionsOf = (statement: { Action: string | string[] }) => [statement.Action].flat();

describe('the data stack', () => {
  it('builds every table of infra/data/tables.ts with its keys and indexes', () => {
    data.resourceCountIs('AWS::DynamoDB::GlobalTable', tableKeys.length);
    for (const key of tableKeys) {
      const def = tables[key];
      data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
        KeySchema: Match.arrayWith([{ AttributeName: def.partitionKey.name, KeyType: 'HASH' }]),
        GlobalSecondaryIndexes: def.indexes.map((index) => Match.objectLike({ IndexName: index.name })),
      });
    }
  });

  it('protects every table: PITR, deletion protection, retained on delete, no physical name', () => {
    for (const resource of Object.values(data.findResources('AWS::DynamoDB::GlobalTable'))) {
      expect(resource.DeletionPolicy).toBe('Retain');
      expect(resource.Properties.TableName).toBeUndefined();
      for (const replica of resource.Properties.Replicas) {
        expect(replica.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
        expect(replica.DeletionProtectionEnabled).toBe(true);
      }
    }
  });

  it('keeps the three secrets, retained, with no value in the template', () => {
    const secrets = Object.values(data.findResources('AWS::SecretsManager::Secret'));
    expect(secrets).toHaveLength(3);
    for (const secret of secrets) {
      expect(secret.DeletionPolicy).toBe('Retain');
      expect(secret.Properties.SecretString).toBeUndefined();
    }
  });
});

describe('the backend stack', () => {
  it('has one HTTP API route and one arm64 function per route, plus one function per event rule', () => {
    backend.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length);
    backend.resourceCountIs('AWS::ApiGateway::RestApi', 0);
    for (const route of routes) {
      backend.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: `${route.method} ${route.path}`,
        AuthorizationType: route.auth === 'user' || route.auth === 'admin' ? 'JWT' : 'NONE',
      });
    }
    backend.resourceCountIs('AWS::Lambda::Function', routes.length + eventRules.length);
    backend.allResourcesProperties('AWS::Lambda::Function', { Architectures: ['arm64'] });
  });

  it('throttles every route as routes.ts says', () => {
    const settings = Object.fromEntries(
      routes.map((r) => [
        `${r.method} ${r.path}`,
        Match.objectLike({
          ThrottlingRateLimit: r.throttle.rateLimit,
          ThrottlingBurstLimit: r.throttle.burstLimit,
        }),
      ]),
    );
    backend.hasResourceProperties('AWS::ApiGatewayV2::Stage', { RouteSettings: settings });
  });

  it('gives every rule target a retry policy and a dead-letter queue', () => {
    const rules = Object.values(backend.findResources('AWS::Events::Rule'));
    expect(rules).toHaveLength(eventRules.length);
    for (const rule of rules) {
      for (const target of rule.Properties.Targets) {
        expect(target.RetryPolicy).toBeDefined();
        expect(target.DeadLetterConfig?.Arn).toBeDefined();
      }
    }
  });

  it('never lets any function update or delete consent-ledger records', () => {
    const ledgerWriters = statements.filter((s) => JSON.stringify(s.Resource).includes('ConsentLedger'));
    expect(ledgerWriters.length).toBeGreaterThan(0);
    for (const statement of ledgerWriters) {
      expect(actionsOf(statement)).not.toContain('dynamodb:UpdateItem');
      expect(actionsOf(statement)).not.toContain('dynamodb:DeleteItem');
    }
  });

  it('grants no wildcard actions', () => {
    for (const statement of statements) {
      for (const action of actionsOf(statement)) expect(action).not.toMatch(/(^\*$|:\*$)/);
    }
  });
});
