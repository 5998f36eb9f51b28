import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type TableKey, tables as tableDefs } from '#infra/data/tables.ts';
import type { Grant, TableAccess } from '#lambdas/grants.ts';

// Turns the grants declared in routes.ts / event-rules.ts into the narrowest IAM statements and
// the environment variables that name the resources, together, so they cannot drift apart.

const tableActions: Record<TableAccess, string[]> = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
  put: ['dynamodb:PutItem'],
  readPut: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
  readWrite: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
  ],
  readWriteDelete: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
  ],
};

export interface GrantTargets {
  tables: Record<TableKey, ITableV2>;
}

export function applyGrants(fn: NodejsFunction, grants: Grant[], targets: GrantTargets) {
  for (const grant of grants) {
    switch (grant.kind) {
      case 'table': {
        const table = targets.tables[grant.table];
        const resources = [table.tableArn, ...(grant.indexes ? [`${table.tableArn}/index/*`] : [])];
        fn.addToRolePolicy(new PolicyStatement({ actions: tableActions[grant.access], resources }));
        fn.addEnvironment(tableDefs[grant.table].envVar, table.tableName);
        break;
      }
      case 'eventBus':
      case 'email':
      case 'secret':
        // Wired with the backend and infrastructure issues, together with their resources.
        throw new Error(`Grant kind "${grant.kind}" is not wired into the stack yet`);
    }
  }
}
