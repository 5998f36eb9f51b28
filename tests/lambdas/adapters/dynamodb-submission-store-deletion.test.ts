import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbOrganizations } from '#lambdas/adapters/dynamodb-organizations.ts';
import { DynamoDbSubmissionStore } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { planErasure } from '#lambdas/domain/data-rights/erasure-plan.ts';
import {
  DeletionConfirmationInvalidError,
  DeletionNotCancellableError,
  DeletionRequestNotFoundError,
} from '#lambdas/domain/errors.ts';
import {
  cancelOwnDataDeletion,
  confirmDataDeletion,
  requestDataDeletion,
  requestOwnDataDeletion,
} from '#lambdas/domain/submissions/data-deletion.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { FakeLimiter, FakeProfiles } from '#tests/lambdas/domain/account/fakes.ts';
import { MemoryMailer, sequentialIds } from '#tests/lambdas/domain/submissions/fakes.ts';

// The data-deletion link's rule, held by one conditional write (DynamoDbSubmissionStore.confirm)
// against DynamoDB Local with the tables of lambdas/tables.ts: the right token, once, before
// `confirmBy`. Until now only the stack suites exercised the condition itself.

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let store: DynamoDbSubmissionStore;
// The real time: DynamoDB Local applies the table's TTL to `expiresAt` by the machine's clock.
let now = new Date();
const clock = { now: () => now };
const ids = sequentialIds('del-adapter');

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'deletion-' });
  client = localDocumentClient(dynamodb.endpoint);
  store = new DynamoDbSubmissionStore(client, dynamodb.tableNames.submissions);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

/** A stored, unconfirmed request and the token its email carried. */
async function requested(): Promise<{ requestId: string; token: string }> {
  const mailer = new MemoryMailer();
  const request = requestDataDeletion({
    store,
    mailer,
    limiter: new FakeLimiter(() => clock.now().getTime()),
    clock,
    newId: ids,
    appUrl: 'https://platform.example/',
  });
  const { requestId } = await request({ email: 'ada@analytical-engines.example' });
  const link = /#token=(\S+)/.exec(mailer.sent[0]?.text ?? '');
  if (!link?.[1]) throw new Error('no confirmation link in the email');
  return { requestId, token: decodeURIComponent(link[1]) };
}

const confirm = () => confirmDataDeletion({ requests: store, clock });

describe('DynamoDbSubmissionStore.confirm (the single-use deletion link)', () => {
  it('confirms with the emailed token once, and refuses the same token a second time', async () => {
    now = new Date();
    const { requestId, token } = await requested();
    await expect(confirm()(token)).resolves.toMatchObject({ requestId });
    expect(await store.get(requestId)).toMatchObject({ status: 'received', confirmedBy: 'email_link' });
    expect(await store.get(requestId)).not.toHaveProperty('confirmationTokenHash');
    await expect(confirm()(token)).rejects.toBeInstanceOf(DeletionConfirmationInvalidError);
  });

  it('refuses a token for the right request with another secret, and leaves the request unconfirmed', async () => {
    now = new Date();
    const { requestId, token } = await requested();
    await expect(confirm()(`${requestId}.not-the-secret`)).rejects.toBeInstanceOf(
      DeletionConfirmationInvalidError,
    );
    expect(await store.get(requestId)).toMatchObject({ status: 'unconfirmed' });
    await expect(confirm()(token)).resolves.toMatchObject({ requestId });
  });

  it('refuses the right token once confirmBy has passed', async () => {
    now = new Date();
    const { requestId, token } = await requested();
    const { confirmBy } = (await store.get(requestId)) as { confirmBy: string };
    now = new Date(new Date(confirmBy).getTime() + 1000);
    await expect(confirm()(token)).rejects.toBeInstanceOf(DeletionConfirmationInvalidError);
    expect(await store.get(requestId)).toMatchObject({ status: 'unconfirmed' });
  });

  it('refuses a token naming a request that does not exist, creating nothing', async () => {
    await expect(confirm()('del-unknown.secret')).rejects.toBeInstanceOf(DeletionConfirmationInvalidError);
    expect(await store.get('del-unknown')).toBeUndefined();
  });
});

describe("DynamoDbSubmissionStore's own requests (one pending per account, ADR 0076)", () => {
  const ownIds = sequentialIds('own-adapter');
  const profiles = new FakeProfiles();
  const mailer = new MemoryMailer();
  const own = () =>
    requestOwnDataDeletion({
      profiles,
      requests: store,
      mailer,
      clock,
      newId: ownIds,
      limiter: new FakeLimiter(() => clock.now().getTime()),
    });
  const cancel = () => cancelOwnDataDeletion({ requests: store, clock });
  const person = (userId: string) => ({
    userId,
    emailVerified: true,
    claims: { email: `${userId}@company.example` },
  });

  it('answers a second request, even a concurrent one, with the pending one', async () => {
    now = new Date();
    const ada = person('ada');
    const answers = await Promise.all([own()(ada, {}), own()(ada, {}), own()(ada, {})]);
    expect(new Set(answers.map((a) => a.requestId)).size).toBe(1);
    const pending = await store.pendingOf('ada');
    expect(pending).toMatchObject({ requestId: answers[0]?.requestId, status: 'received', userId: 'ada' });
    await expect(own()(ada, {})).resolves.toMatchObject({
      requestId: pending?.requestId,
      alreadyPending: true,
    });
  });

  it("cancels the caller's pending request only, and only before it is carried out", async () => {
    now = new Date();
    const { requestId } = await own()(person('bob'), {});
    await expect(cancel()(person('eve'), requestId)).rejects.toBeInstanceOf(DeletionRequestNotFoundError);
    await cancel()(person('bob'), requestId);
    expect(await store.get(requestId)).toMatchObject({ status: 'cancelled' });
    expect(await store.pendingOf('bob')).toBeUndefined();
    await expect(cancel()(person('bob'), requestId)).rejects.toBeInstanceOf(DeletionRequestNotFoundError);

    const second = await own()(person('bob'), {});
    expect(second.requestId).not.toBe(requestId);
    await store.markInProgress(second.requestId, {
      userIds: ['bob'],
      planned: [],
      startedAt: now.toISOString(),
    });
    await expect(cancel()(person('bob'), second.requestId)).rejects.toBeInstanceOf(
      DeletionNotCancellableError,
    );
    expect(await store.pendingOf('bob')).toMatchObject({
      requestId: second.requestId,
      status: 'in_progress',
    });
  });

  it('files a new request once the pending one was carried out', async () => {
    now = new Date();
    const { requestId } = await own()(person('cy'), {});
    await store.complete(
      requestId,
      { deleted: [], kept: [], completedAt: now.toISOString() },
      Math.ceil(now.getTime() / 1000) + 86_400,
    );
    expect(await store.pendingOf('cy')).toBeUndefined();
    const next = await own()(person('cy'), {});
    expect(next.requestId).not.toBe(requestId);
    expect(await store.pendingOf('cy')).toMatchObject({ requestId: next.requestId });
  });
});

describe('what an erasure of an address finds (ADR 0077, 0083)', () => {
  it('finds the organization record its owner registered, which the erasure plan then deletes', async () => {
    const organizations = new DynamoDbOrganizations(client, dynamodb.tableNames.submissions);
    await organizations.saveOnce({
      organizationId: 'org_erasable1',
      displayName: 'Analytical Engines',
      organizationType: 'commercial',
      registeredBy: 'auth0|ada',
      email: 'ada@erasable-engines.example',
      createdAt: '2026-11-27T00:00:00.000Z',
    });
    const found = await store.listByEmail('ada@erasable-engines.example');
    expect(found).toEqual([
      expect.objectContaining({ pk: 'ORGANIZATION#org_erasable1', kind: 'organization' }),
    ]);
    const plan = planErasure({
      submissions: found,
      userIds: ['auth0|ada'],
      kyc: [],
      consents: [],
      endedAt: new Date('2026-11-27T00:00:00.000Z'),
    });
    expect(plan.deleteSubmissions.map((ref) => ref.pk)).toEqual(['ORGANIZATION#org_erasable1']);
  });
});
