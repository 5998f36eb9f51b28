import { tableActions } from '#infra/api/grants.ts';
import type { Grant } from '#lambdas/grants.ts';
import { type TableKey, tables } from '#lambdas/tables.ts';

// What IAM would say to a DynamoDB call a handler made, from its route's grants alone: the same
// actions and `dynamodb:LeadingKeys` conditions infra/api/grants.ts writes (one statement per
// grant, every key of one request under one statement's prefixes). The local stack does not
// enforce IAM, so this is where a grant narrower than an adapter's calls shows.

type Input = Record<string, unknown>;
/** The lib-dynamodb command's class name, and its input. */
export interface DynamoCall {
  command: string;
  input: Input;
}

const actionOf: Record<string, string> = {
  GetCommand: 'dynamodb:GetItem',
  PutCommand: 'dynamodb:PutItem',
  UpdateCommand: 'dynamodb:UpdateItem',
  DeleteCommand: 'dynamodb:DeleteItem',
  QueryCommand: 'dynamodb:Query',
  BatchGetCommand: 'dynamodb:BatchGetItem',
};

/** One IAM request: action, table, the partition keys it names (undefined: not known, e.g. a Query). */
interface Request {
  action: string;
  tableName: string;
  keys: string[] | undefined;
}

function requestsOf(call: DynamoCall, tableNames: Record<TableKey, string>): Request[] {
  const pkNameOf = (tableName: string) => {
    const key = (Object.keys(tableNames) as TableKey[]).find((k) => tableNames[k] === tableName);
    return key ? tables[key].partitionKey.name : 'pk';
  };
  const pkOf = (tableName: string, item: unknown) => String((item as Input)[pkNameOf(tableName)]);
  const { command, input } = call;
  if (command === 'BatchGetCommand') {
    return Object.entries(input.RequestItems as Record<string, { Keys: Input[] }>).map(([tableName, r]) => ({
      action: actionOf[command] as string,
      tableName,
      keys: r.Keys.map((k) => pkOf(tableName, k)),
    }));
  }
  if (command === 'TransactWriteCommand') {
    return (input.TransactItems as Record<string, Input>[]).map((entry) => {
      const [kind, op] = Object.entries(entry)[0] as [string, Input];
      const tableName = String(op.TableName);
      const action = {
        Put: 'dynamodb:PutItem',
        Update: 'dynamodb:UpdateItem',
        Delete: 'dynamodb:DeleteItem',
      }[kind];
      return {
        action: action ?? 'dynamodb:ConditionCheckItem',
        tableName,
        keys: [pkOf(tableName, op.Item ?? op.Key)],
      };
    });
  }
  const tableName = String(input.TableName);
  const item = input.Item ?? input.Key;
  return [
    {
      action: actionOf[command] ?? command,
      tableName,
      keys: item
        ? [pkOf(tableName, item)]
        : command === 'QueryCommand'
          ? queriedKeys(input, pkNameOf(tableName))
          : undefined,
    },
  ];
}

/**
 * The partition key a Query of the table itself names (`pk = :pk`): what IAM's
 * `dynamodb:LeadingKeys` is checked against. Undefined for an index's Query or one it cannot read.
 */
function queriedKeys(input: Input, partitionKey: string): string[] | undefined {
  if (input.IndexName !== undefined || typeof input.KeyConditionExpression !== 'string') return undefined;
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const match = /^\s*(#?\w+)\s*=\s*(:\w+)/.exec(input.KeyConditionExpression);
  if (!match) return undefined;
  const [, name = '', placeholder = ''] = match;
  const attribute = names[name] ?? name;
  const value = values[placeholder];
  return attribute === partitionKey && typeof value === 'string' ? [value] : undefined;
}

/** The calls (as `action table key...`) that no grant of the route allows. */
export function deniedCalls(
  grants: Grant[],
  calls: DynamoCall[],
  tableNames: Record<TableKey, string>,
): string[] {
  const denied: string[] = [];
  for (const request of calls.flatMap((call) => requestsOf(call, tableNames))) {
    const allowed = grants.some((grant) => {
      if (grant.kind !== 'table' || tableNames[grant.table] !== request.tableName) return false;
      if (!tableActions[grant.access].includes(request.action)) return false;
      if (!grant.keyPrefixes) return true;
      const prefixes = grant.keyPrefixes;
      return request.keys?.every((key) => prefixes.some((p) => key.startsWith(p))) ?? false;
    });
    if (!allowed) denied.push(`${request.action} ${request.tableName} ${request.keys?.join(',') ?? '?'}`);
  }
  return denied;
}
