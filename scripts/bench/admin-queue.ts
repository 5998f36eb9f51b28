import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { encodeVerificationCursor, verificationPageSize } from '#contracts/admin-verifications.ts';
import { kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { historySk } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { registrationKey } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { tables } from '#lambdas/tables.ts';
import { localCredentials } from '#local/dynamodb.ts';
import type { InvocationCalls } from '#local/gateway/dynamodb-calls.ts';
import type { StackInfo } from '#local/stack.ts';
import { passwordToken } from '#scripts/lib/local-stack-client.ts';
import { median, percentile } from './stats.ts';

// Issue 27, item 5 (ADR 0082): the admin queue stays usable with 1,000 records. On the bench's own
// stack, before any other phase writes a verification, 1,000 verifications waiting for review
// (`pending`, each with its registration and one history item, written as the state writer and
// the registration leave them) and 25 rejected ones are seeded. Timed one request at a time (a
// reviewer's view, not a load), rounds interleaved so a busy moment hits each:
//   - the reference: the rejected queue, one full page with nothing behind it (25 records);
//   - the pending queue's first page, and a page deep in it (after 900 records), among 1,000:
//     p50 <= 1.5x the reference's p50 (a page costs what a page costs, whatever is behind it);
//   - a search over the 1,000 (organization or email; it reads every registration of the filter):
//     p50 <= 6x the reference's p50;
// and the DynamoDB calls of one page and of one search, counted (reported).

export const adminQueueBudgets = { pageVsReference: 1.5, searchVsReference: 6 } as const;
export const adminQueueRecords = 1_000;
const referenceRecords = verificationPageSize;
const rounds = 5;
const requestsPerRound = 8;

export interface AdminQueueFigures {
  records: number;
  /** p50 and p90 in ms of each request kind, over every round. */
  reference: { p50: number; p90: number; items: number };
  firstPage: { p50: number; p90: number; items: number };
  deepPage: { p50: number; p90: number; items: number };
  search: { p50: number; p90: number; items: number };
  /** The DynamoDB calls of one first page and of one search, by command. */
  dynamoDbCalls: { page: string[]; search: string[] };
}

const seededAt = (index: number) => new Date(Date.UTC(2026, 9, 1) + index * 1000).toISOString();
const seededUser = (status: string, index: number) =>
  `auth0|bench-queue-${status}-${String(index).padStart(4, '0')}`;

async function seed(info: StackInfo): Promise<void> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: info.dynamodb.endpoint,
      region: 'eu-central-1',
      credentials: localCredentials,
    }),
  );
  const kycTable = info.dynamodb.tables[tables.kycState.logicalName];
  const submissionsTable = info.dynamodb.tables[tables.submissions.logicalName];
  if (!kycTable || !submissionsTable) throw new Error('stack.json names no KYC or submissions table');
  const items: { table: string; item: Record<string, unknown> }[] = [];
  const add = (status: 'pending' | 'rejected', count: number) => {
    for (let index = 0; index < count; index++) {
      const userId = seededUser(status, index);
      const at = seededAt(index);
      // One organization in a hundred is a bioscience lab: what the timed search looks for.
      const organizationName =
        index % 100 === 7 ? `Helix Bioscience ${index}` : `Northwatch Systems ${index}`;
      items.push(
        {
          table: submissionsTable,
          item: {
            ...registrationKey(userId),
            kind: 'registration',
            userId,
            email: `reviewer-${index}@${status}.bench.example`,
            responsibleName: 'Bench Person',
            responsibleTitle: 'Compliance',
            responsiblePhone: '+49 30 0000000',
            organizationName,
            organizationUrl: 'https://bench.example',
            organizationType: 'commercial',
            createdAt: at,
          },
        },
        {
          table: kycTable,
          item: {
            ...kycStateKey(userId),
            kind: 'kyc_state',
            userId,
            status,
            queueStatus: status,
            updatedAt: at,
            inquiryId: `inq_bench${status}${index}`,
            referenceId: userId,
            version: 2,
            attempt: 1,
            decidedBy: 'persona',
            ...(status === 'rejected' ? { reasonCode: 'checks_declined' } : {}),
          },
        },
        {
          table: kycTable,
          item: {
            pk: kycStateKey(userId).pk,
            sk: historySk(at, 2),
            kind: 'kyc_history',
            from: 'not_started',
            to: status,
            by: 'persona',
            actorId: 'persona',
            reason: status === 'pending' ? 'inquiry.marked-for-review' : 'inquiry.declined',
            at,
          },
        },
      );
    }
  };
  add('pending', adminQueueRecords);
  add('rejected', referenceRecords);
  try {
    for (let start = 0; start < items.length; start += 25) {
      let request: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> = {};
      for (const { table, item } of items.slice(start, start + 25))
        request[table] = [...(request[table] ?? []), { PutRequest: { Item: item } }];
      for (let attempt = 0; Object.keys(request).length > 0; attempt++) {
        if (attempt === 5) throw new Error('DynamoDB Local left seeded items unprocessed');
        const { UnprocessedItems = {} } = await client.send(new BatchWriteCommand({ RequestItems: request }));
        request = UnprocessedItems as typeof request;
      }
    }
  } finally {
    client.destroy();
  }
}

export async function measureAdminQueue(
  info: StackInfo,
  origin: Record<string, string>,
  log: (line: string) => void = () => {},
): Promise<AdminQueueFigures> {
  log(
    `api: admin queue: seeding ${adminQueueRecords} verifications in review and ${referenceRecords} rejected`,
  );
  await seed(info);
  const admin = info.accounts.find((account) => account.role === 'admin');
  if (!admin) throw new Error('stack.json has no admin account');
  const token = await passwordToken(info, admin.email, admin.password);
  const deepCursor = encodeVerificationCursor({
    updatedAt: seededAt(adminQueueRecords - 900),
    userId: seededUser('pending', adminQueueRecords - 900),
  });
  const kinds = {
    reference: '/api/admin/verifications?status=rejected',
    firstPage: '/api/admin/verifications?status=pending',
    deepPage: `/api/admin/verifications?status=pending&cursor=${deepCursor}`,
    search: '/api/admin/verifications?status=pending&q=helix%20bioscience',
  } as const;
  const get = async (path: string) => {
    const started = performance.now();
    const answer = await fetch(`${info.api}${path}`, {
      headers: { ...origin, authorization: `Bearer ${token}` },
    });
    const body = (await answer.json()) as { items?: unknown[] };
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
    return { ms, items: body.items?.length ?? 0 };
  };
  // Warm the handler module, its clients and DynamoDB Local's pages.
  for (const path of Object.values(kinds)) for (let call = 0; call < 3; call++) await get(path);

  log(`api: admin queue: ${rounds} interleaved rounds of ${requestsPerRound} requests of each kind`);
  const samples = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, [] as number[]])) as Record<
    keyof typeof kinds,
    number[]
  >;
  const items = {} as Record<keyof typeof kinds, number>;
  for (let round = 0; round < rounds; round++) {
    for (const [kind, path] of Object.entries(kinds) as [keyof typeof kinds, string][]) {
      for (let call = 0; call < requestsPerRound; call++) {
        const { ms, items: count } = await get(path);
        samples[kind].push(ms);
        items[kind] = count;
      }
    }
  }
  const figure = (kind: keyof typeof kinds) => ({
    p50: median(samples[kind]),
    p90: percentile(samples[kind], 90),
    items: items[kind],
  });

  const count = async (path: string) => {
    const control = (method: string) =>
      fetch(`${info.api}/__local/dynamodb/calls`, { method }).then(
        async (response) => (await response.json()) as InvocationCalls[],
      );
    await control('POST');
    try {
      await get(path);
      const log = await control('GET');
      return log.filter((entry) => entry.handler === 'list-verifications').flatMap((entry) => entry.calls);
    } finally {
      await control('DELETE');
    }
  };
  return {
    records: adminQueueRecords,
    reference: figure('reference'),
    firstPage: figure('firstPage'),
    deepPage: figure('deepPage'),
    search: figure('search'),
    dynamoDbCalls: { page: await count(kinds.firstPage), search: await count(kinds.search) },
  };
}

/** "27 (BatchGetItem 1, Query 26)": a count of calls by command. */
export function callSummary(calls: readonly string[]): string {
  const by = new Map<string, number>();
  for (const call of calls) by.set(call, (by.get(call) ?? 0) + 1);
  return `${calls.length} (${[...by].map(([name, n]) => `${name} ${n}`).join(', ')})`;
}
