import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { tableKeys, tables } from '#infra/data/tables.ts';
import { ApiStack } from '#infra/stacks/api-stack.ts';
import { DataStack } from '#infra/stacks/data-stack.ts';
import { routes } from '#lambdas/routes.ts';

// Synthesis without bundling: the stacks must follow the shared route and table definitions.
function synth() {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const env = { region: 'eu-central-1' };
  const data = new DataStack(app, 'Data', { env });
  const api = new ApiStack(app, 'Api', {
    env,
    data: data.data,
    auth0: {
      domain: 'tenant.eu.auth0.com',
      audience: 'https://api.example',
      claimsNamespace: 'https://example.com/',
    },
    logRetention: RetentionDays.ONE_YEAR,
  });
  return { data: Template.fromStack(data), api: Template.fromStack(api) };
}

describe('the data stack', () => {
  const { data } = synth();

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
    const all = data.findResources('AWS::DynamoDB::GlobalTable');
    for (const resource of Object.values(all)) {
      expect(resource.DeletionPolicy).toBe('Retain');
      expect(resource.Properties.TableName).toBeUndefined();
      for (const replica of resource.Properties.Replicas) {
        expect(replica.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
        expect(replica.DeletionProtectionEnabled).toBe(true);
      }
    }
  });
});

describe('the API stack', () => {
  const { api } = synth();

  it('has one HTTP API route and one arm64 function per entry of routes.ts', () => {
    api.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length);
    api.resourceCountIs('AWS::ApiGateway::RestApi', 0);
    for (const route of routes) {
      api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${route.method} ${route.path}` });
    }
    api.resourceCountIs('AWS::Lambda::Function', routes.length);
    api.allResourcesProperties('AWS::Lambda::Function', { Architectures: ['arm64'] });
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
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', { RouteSettings: settings });
  });

  it('lets the waitlist function only put items into the submissions table', () => {
    const policies = api.findResources('AWS::IAM::Policy');
    const statements = Object.values(policies).flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement,
    );
    const dynamo = statements.filter((statement) => JSON.stringify(statement.Action).includes('dynamodb:'));
    expect(dynamo).toHaveLength(1);
    expect(dynamo[0].Action).toBe('dynamodb:PutItem');
  });
});
