import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationHistoryLimit, verificationPageSize } from '#contracts/admin-verifications.ts';
import type { FlaggedCheck } from '#contracts/flagged-checks.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbKycStore, historySk } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { DynamoDbRegistrationStore, registrationKey } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { DynamoDbRetention } from '#lambdas/adapters/dynamodb-retention.ts';
import { allowNewAttempt, decideVerification } from '#lambdas/domain/kyc/decide-verification.ts';
import { VerificationNotFoundError } from '#lambdas/domain/kyc/errors.ts';
import { listVerifications } from '#lambdas/domain/kyc/list-verifications.ts';
import { normaliseInstant } from '#lambdas/domain/kyc/persona-event.ts';
import { processPersonaEvent } from '#lambdas/domain/kyc/process-persona-event.ts';
import type { RegistrationRecord } from '#lambdas/domain/registration/ports.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The admin queue's reads, and the KYC store's event ordering, against DynamoDB Local (the official jar) with the tables of
// lambdas/tables.ts: the byStatus index, the history items in each user's partition and the
// registrations in the submissions table, written by the real use cases and adapters.

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let kyc: DynamoDbKycStore;
let audit: DynamoDbAdminAuditLog;
let registrations: DynamoDbRegistrationStore;
/** Every command the client sent, by its DynamoDB name (the document client's commands wrap these). */
const sent: string[] = [];

const events = { publish: async () => {} };
let minute = 0;
/** A clock that moves one minute per call, so every write has its own time. */
const clock = { now: () => new Date(Date.UTC(2026, 10, 21, 6, minute++)) };

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'admin-queue-' });
  client = localDocumentClient(dynamodb.endpoint);
  client.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'recordCommands' },
  );
  kyc = new DynamoDbKycStore(client, dynamodb.tableNames.kycState, {
    auditTable: dynamodb.tableNames.adminAuditLog,
  });
  audit = new DynamoDbAdminAuditLog(client, dynamodb.tableNames.adminAuditLog);
  registrations = new DynamoDbRegistrationStore(client, dynamodb.tableNames.submissions);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

const registration = (userId: string, overrides: Partial<RegistrationRecord> = {}): RegistrationRecord => ({
  userId,
  email: `${userId.replace(/\W/g, '-')}@northwatch-defense.example`,
  responsibleName: 'Dana Defense',
  responsibleTitle: 'Security Officer',
  responsiblePhone: '+49 30 7654321',
  organizationName: 'Northwatch Defense',
  organizationUrl: 'https://northwatch-defense.example',
  organizationType: 'defense',
  createdAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

/** A user who registered, started an inquiry, and was put in review by Persona. */
async function userInReview(
  userId: string,
  options: { registered?: boolean; flaggedChecks?: FlaggedCheck[] } = {},
) {
  if (options.registered ?? true) await registrations.saveRegistrationOnce(registration(userId));
  const inquiryId = `inq_${userId.replace(/\W/g, '')}`;
  await kyc.recordInquiry({
    userId,
    inquiryId,
    referenceId: userId,
    expectedVersion: null,
    at: clock.now().toISOString(),
  });
  const outcome = await processPersonaEvent({ store: kyc, events, clock })({
    eventId: `evt_${inquiryId}`,
    name: 'inquiry.marked-for-review',
    createdAt: normaliseInstant(clock.now().toISOString()),
    inquiry: { id: inquiryId, referenceId: userId },
    ...(options.flaggedChecks ? { flaggedChecks: options.flaggedChecks } : {}),
  });
  expect(outcome).toMatchObject({ outcome: 'applied' });
  return inquiryId;
}

/** The same items as userInReview, written in bulk (the transactions would take a while for 101). */
async function seedInReview(userIds: string[]) {
  const at = '2026-11-20T00:00:00.000Z';
  const items = userIds.flatMap((userId) => [
    {
      table: dynamodb.tableNames.submissions,
      item: { ...registrationKey(userId), kind: 'registration', ...registration(userId) },
    },
    {
      table: dynamodb.tableNames.kycState,
      item: {
        ...kycStateKey(userId),
        kind: 'kyc_state',
        userId,
        status: 'pending',
        queueStatus: 'pending',
        updatedAt: at,
        inquiryId: `inq_${userId}`,
        version: 2,
        decidedBy: 'persona',
      },
    },
    {
      table: dynamodb.tableNames.kycState,
      item: {
        pk: kycStateKey(userId).pk,
        sk: historySk(at, 2),
        kind: 'kyc_history',
        from: 'not_started',
        to: 'pending',
        by: 'persona',
        actorId: 'persona',
        reason: 'inquiry.completed',
        at,
      },
    },
  ]);
  for (let start = 0; start < items.length; start += 25) {
    const RequestItems: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> = {};
    for (const { table, item } of items.slice(start, start + 25)) {
      RequestItems[table] = [...(RequestItems[table] ?? []), { PutRequest: { Item: item } }];
    }
    const { UnprocessedItems = {} } = await client.send(new BatchWriteCommand({ RequestItems }));
    expect(Object.keys(UnprocessedItems)).toEqual([]);
  }
}

const list = () => listVerifications({ store: kyc, registrations });

describe('the admin queue on DynamoDB Local', () => {
  it('lists a user in review with the organization, inquiry and history, and moves it after a decision', async () => {
    const userId = 'auth0|queue-one';
    const inquiryId = await userInReview(userId);

    const pending = await list()({ status: 'pending' });
    expect(pending.items.find((item) => item.userId === userId)).toEqual({
      userId,
      status: 'pending',
      inquiryId,
      updatedAt: expect.any(String),
      decidedBy: 'persona',
      reasonCode: null,
      submitted: true,
      attempt: 1,
      newAttemptAllowed: false,
      email: 'auth0-queue-one@northwatch-defense.example',
      name: 'Dana Defense',
      organizationName: 'Northwatch Defense',
      organizationUrl: 'https://northwatch-defense.example',
      organizationType: 'defense',
      proposal: null,
      flaggedChecks: [],
      history: [
        {
          status: 'pending',
          previousStatus: 'not_started',
          decidedBy: 'persona',
          adminId: null,
          reason: 'inquiry.marked-for-review',
          reasonCode: null,
          action: 'status_changed',
          at: expect.any(String),
        },
      ],
    });

    await decideVerification({ store: kyc, events, clock, audit })({
      adminId: 'auth0|admin',
      userId,
      decision: {
        decision: 'rejected',
        reasonCode: 'document_unreadable',
        reason: 'The passport photo is unreadable',
      },
    });

    expect((await list()({ status: 'pending' })).items.map((item) => item.userId)).not.toContain(userId);
    const rejected = (await list()({ status: 'rejected' })).items.find((item) => item.userId === userId);
    expect(rejected?.decidedBy).toBe('admin');
    expect(
      rejected?.history.map((entry) => [entry.previousStatus, entry.status, entry.adminId, entry.reason]),
    ).toEqual([
      ['not_started', 'pending', null, 'inquiry.marked-for-review'],
      ['pending', 'rejected', 'auth0|admin', 'The passport photo is unreadable'],
    ]);
    const [first, second] = rejected?.history ?? [];
    expect(first && second && first.at < second.at).toBe(true);
  });

  it("lists the failed checks Persona's event stored with the state, and keeps them through a reviewer's decision", async () => {
    const userId = 'auth0|queue-flagged';
    const checks = [
      { type: 'selfie', name: 'selfie_id_comparison' },
      { type: 'government-id', name: 'id_expired' },
    ];
    await userInReview(userId, { flaggedChecks: checks });
    sent.length = 0;
    const pending = await list()({ status: 'pending' });
    expect(pending.items.find((item) => item.userId === userId)?.flaggedChecks).toEqual(checks);
    // From the state items the index already returns: no read of their own (the registrations'
    // batch read and the index and history queries only).
    expect([...new Set(sent)].sort()).toEqual(['BatchGetItemCommand', 'QueryCommand']);

    await decideVerification({ store: kyc, events, clock, audit })({
      adminId: 'auth0|admin',
      userId,
      decision: { decision: 'rejected', reasonCode: 'selfie_mismatch' },
    });
    const rejected = (await list()({ status: 'rejected' })).items.find((item) => item.userId === userId);
    expect(rejected?.flaggedChecks).toEqual(checks);
  });

  it('no longer lists an erased user, before or after the retention deadline (ADR 0077)', async () => {
    const kept = 'auth0|queue-kept';
    const erased = 'auth0|queue-erased';
    const expired = 'auth0|queue-expired';
    for (const userId of [kept, erased, expired]) await userInReview(userId);
    const retention = new DynamoDbRetention(client, dynamodb.tableNames);
    await retention.expireKycRecords(erased, [], Math.floor(Date.now() / 1000) + 3600);
    await retention.expireKycRecords(expired, [], Math.floor(Date.now() / 1000) - 1);
    const listed = (await list()({ status: 'all' })).items.map((item) => item.userId);
    expect(listed).toContain(kept);
    expect(listed).not.toContain(erased);
    expect(listed).not.toContain(expired);
  });

  it('changes nothing of an erased state: no decision, no new attempt, no Persona event, no history item', async () => {
    const userId = 'auth0|erased-frozen';
    const inquiryId = await userInReview(userId);
    await new DynamoDbRetention(client, dynamodb.tableNames).expireKycRecords(
      userId,
      [inquiryId],
      Math.floor(Date.now() / 1000) + 3600,
    );
    const before = await kyc.getRecord(userId);
    const historyBefore = (await kyc.listHistories([userId], 50)).get(userId) ?? [];
    expect(before).toMatchObject({ status: 'pending', erased: true });

    const decide = decideVerification({ store: kyc, events, clock, audit });
    await expect(
      decide({
        adminId: 'auth0|admin',
        userId,
        decision: { decision: 'approved', reason: 'late decision', reasonCode: 'identity_confirmed' },
      }),
    ).rejects.toBeInstanceOf(VerificationNotFoundError);
    await expect(
      allowNewAttempt({ store: kyc, clock, audit })({
        adminId: 'auth0|admin',
        userId,
        reason: 'after the erasure',
      }),
    ).rejects.toBeInstanceOf(VerificationNotFoundError);
    expect(
      await kyc.recordInquiry({
        userId,
        inquiryId: 'inq_after_erasure',
        referenceId: userId,
        expectedVersion: before?.version ?? 0,
        at: clock.now().toISOString(),
      }),
    ).toBe('conflict');
    const persona = await processPersonaEvent({ store: kyc, events, clock })({
      eventId: `evt_late_${inquiryId}`,
      name: 'inquiry.approved',
      createdAt: normaliseInstant(clock.now().toISOString()),
      inquiry: { id: inquiryId, referenceId: userId },
    });
    expect(persona).toEqual({ outcome: 'ignored', reason: 'erased', security: false });
    // The store refuses too, whoever asks (a write that raced the erasure, an older reader).
    expect(
      await kyc.applyChange({
        userId,
        expectedVersion: before?.version ?? 0,
        eventId: 'admin_race',
        eventAt: clock.now().toISOString(),
        requireNewerEvent: false,
        inquiryId,
        previousStatus: 'pending',
        status: 'approved',
        decidedBy: 'admin',
        actorId: 'auth0|admin',
        reason: null,
        reasonCode: null,
        at: clock.now().toISOString(),
      }),
    ).toEqual({ outcome: 'conflict' });

    expect(await kyc.getRecord(userId)).toEqual(before);
    expect((await kyc.listHistories([userId], 50)).get(userId) ?? []).toEqual(historyBefore);
  });

  it('lists an account that never registered with empty organization fields', async () => {
    const userId = 'auth0|queue-unregistered';
    await userInReview(userId, { registered: false });
    const item = (await list()({ status: 'pending' })).items.find((entry) => entry.userId === userId);
    expect(item).toMatchObject({ organizationName: null, organizationType: null, email: null, name: null });
    expect(item?.history).toHaveLength(1);
  });

  it(`keeps only a user's newest ${verificationHistoryLimit} transitions, oldest first`, async () => {
    const userId = 'auth0|queue-long-history';
    await userInReview(userId);
    const decide = decideVerification({ store: kyc, events, clock, audit });
    for (let round = 0; round < verificationHistoryLimit; round++) {
      await decide({
        adminId: 'auth0|admin',
        userId,
        decision:
          round % 2 === 0
            ? { decision: 'approved', reasonCode: 'identity_confirmed', reason: `Round ${round}` }
            : { decision: 'rejected', reasonCode: 'selfie_mismatch', reason: `Round ${round}` },
      });
    }
    const item = (await list()({ status: 'all' })).items.find((entry) => entry.userId === userId);
    expect(item?.history).toHaveLength(verificationHistoryLimit);
    // The Persona transition was the oldest of 51: it is the one left out.
    expect(item?.history[0]?.reason).toBe('Round 0');
    expect(item?.history.at(-1)?.reason).toBe(`Round ${verificationHistoryLimit - 1}`);
    const times = item?.history.map((entry) => entry.at) ?? [];
    expect([...times].sort()).toEqual(times);
  }, 30_000);

  it('a page costs one index query, one batch read and one history query per listed user; the cursor walks the rest', async () => {
    const users = Array.from({ length: 101 }, (_, index) => `auth0|bulk-${String(index).padStart(3, '0')}`);
    // All share one change time: the index gives ties in no fixed order, the cursor must still
    // list each user once.
    await seedInReview(users);
    sent.length = 0;
    const first = await list()({ status: 'pending' });
    expect(first.items).toHaveLength(verificationPageSize);
    expect(first.nextCursor).not.toBeNull();
    const count = (name: string) => sent.filter((command) => command === name).length;
    expect(count('BatchGetItemCommand')).toBe(1);
    // One history query per listed user; the index is read 26 items at a time, and on past the
    // page while the items share the page's last change time (here 101 do: 4 reads).
    const indexReads = count('QueryCommand') - verificationPageSize;
    expect(indexReads).toBeGreaterThanOrEqual(1);
    expect(indexReads).toBeLessThanOrEqual(Math.ceil(users.length / (verificationPageSize + 1)) + 1);
    expect(sent.length).toBe(1 + count('QueryCommand'));

    const seen = first.items.map((item) => item.userId);
    for (let cursor = first.nextCursor; cursor; ) {
      const page = await list()({ status: 'pending', cursor });
      seen.push(...page.items.map((item) => item.userId));
      cursor = page.nextCursor;
    }
    expect(seen.filter((userId) => users.includes(userId)).sort()).toEqual(users);
    expect(new Set(seen).size).toBe(seen.length);
  }, 60_000);

  it('searches the registrations of the whole filter in batches of 100, and lists the matches with their history', async () => {
    const users = Array.from({ length: 120 }, (_, index) => `auth0|search-${String(index).padStart(3, '0')}`);
    await seedInReview(users);
    sent.length = 0;
    const found = await list()({ status: 'pending', q: 'AUTH0-SEARCH-11' });
    expect(found.items.map((item) => item.userId).sort()).toEqual(
      users.filter((userId) => userId.startsWith('auth0|search-11')),
    );
    expect(found).toMatchObject({ nextCursor: null, truncated: false });
    const count = (name: string) => sent.filter((command) => command === name).length;
    const listed = (await list()({ status: 'pending', q: 'northwatch-defense' })).items.length;
    expect(listed).toBe(verificationPageSize);
    // The first search: the index (one query), every registration of the filter, one history each.
    expect(count('QueryCommand')).toBe(1 + found.items.length + 1 + listed);
  }, 60_000);
});

describe('DynamoDbRegistrationStore.getRegistrations under throttling', () => {
  const documentClient = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: 'eu-central-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
  );
  const ddb = mockClient(documentClient);
  const store = new DynamoDbRegistrationStore(documentClient, 'Submissions');
  const item = (userId: string) => ({
    ...registrationKey(userId),
    kind: 'registration',
    ...registration(userId),
  });

  it('asks again for the keys DynamoDB left unprocessed', async () => {
    ddb.reset();
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { Submissions: [item('a')] },
        UnprocessedKeys: { Submissions: { Keys: [registrationKey('b')] } },
      })
      .resolvesOnce({ Responses: { Submissions: [item('b')] } });
    const found = await store.getRegistrations(['a', 'b']);
    expect([...found.keys()].sort()).toEqual(['a', 'b']);
    expect(found.get('b')).toEqual(registration('b'));
    const calls = ddb.commandCalls(BatchGetCommand);
    expect(calls[1]?.args[0].input.RequestItems?.Submissions?.Keys).toEqual([registrationKey('b')]);
  });

  it('fails instead of listing users without their organization when keys stay unprocessed', async () => {
    ddb.reset();
    ddb.on(BatchGetCommand).resolves({ UnprocessedKeys: { Submissions: { Keys: [registrationKey('a')] } } });
    await expect(store.getRegistrations(['a'])).rejects.toThrow(/unprocessed/);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(5);
  });
});

describe('event ordering in the database', () => {
  /** A Persona event's change, applied by the store alone (no use-case pre-check). */
  const personaChange = async (
    userId: string,
    inquiryId: string,
    status: 'pending' | 'approved' | 'rejected',
    eventAt: string,
    eventId: string,
    flaggedChecks?: FlaggedCheck[],
  ) => {
    const state = await kyc.getRecord(userId);
    if (!state) throw new Error('no state');
    return kyc.applyChange({
      ...(flaggedChecks ? { flaggedChecks } : {}),
      userId,
      expectedVersion: state.version,
      eventId,
      eventAt,
      requireNewerEvent: true,
      inquiryId,
      previousStatus: state.status,
      status,
      decidedBy: 'persona',
      actorId: 'persona',
      reason: eventId,
      reasonCode: null,
      at: clock.now().toISOString(),
    });
  };

  it('orders events of the same time by status: a decision beats pending, rejected beats approved, the same status is refused', async () => {
    const userId = 'auth0|same-second';
    const inquiryId = 'inq_samesecond';
    await kyc.recordInquiry({
      userId,
      inquiryId,
      referenceId: userId,
      expectedVersion: null,
      at: clock.now().toISOString(),
    });
    const second = '2026-11-21T06:30:00.000000Z';
    expect(await personaChange(userId, inquiryId, 'approved', second, 'evt_a')).toMatchObject({
      outcome: 'applied',
    });
    expect(await personaChange(userId, inquiryId, 'pending', second, 'evt_b')).toEqual({
      outcome: 'conflict',
    });
    expect(await personaChange(userId, inquiryId, 'approved', second, 'evt_c')).toEqual({
      outcome: 'conflict',
    });
    expect((await kyc.getRecord(userId))?.status).toBe('approved');
    expect(await personaChange(userId, inquiryId, 'rejected', second, 'evt_d')).toMatchObject({
      outcome: 'applied',
    });
    expect(await personaChange(userId, inquiryId, 'approved', second, 'evt_e')).toEqual({
      outcome: 'conflict',
    });
    expect(await personaChange(userId, inquiryId, 'pending', '2026-11-21T06:29:59.999999Z', 'evt_f')).toEqual(
      { outcome: 'conflict' },
    );
    expect(
      await personaChange(userId, inquiryId, 'pending', '2026-11-21T06:30:00.000001Z', 'evt_g'),
    ).toMatchObject({ outcome: 'applied' });
    expect((await kyc.getRecord(userId))?.status).toBe('pending');
  });

  it("refuses a stale event's failed checks in the database, as it refuses its status", async () => {
    const userId = 'auth0|flagged-order';
    const inquiryId = 'inq_flaggedorder';
    await kyc.recordInquiry({
      userId,
      inquiryId,
      referenceId: userId,
      expectedVersion: null,
      at: clock.now().toISOString(),
    });
    const newer = [{ type: 'selfie', name: 'selfie_liveness_detection' }];
    const older = [{ type: 'government-id', name: 'id_tamper_detection' }];
    expect(
      await personaChange(userId, inquiryId, 'pending', '2026-11-21T06:31:00.000000Z', 'evt_fo_1', newer),
    ).toMatchObject({ outcome: 'applied' });
    // Read before the newer event committed, written after it: the ordering condition refuses it.
    expect(
      await personaChange(userId, inquiryId, 'rejected', '2026-11-21T06:30:00.000000Z', 'evt_fo_2', older),
    ).toEqual({ outcome: 'conflict' });
    expect((await kyc.getRecord(userId))?.flaggedChecks).toEqual(newer);
    // A change without checks leaves them; a newer event with an empty list clears them.
    expect(
      await personaChange(userId, inquiryId, 'pending', '2026-11-21T06:32:00.000000Z', 'evt_fo_3'),
    ).toMatchObject({ outcome: 'applied' });
    expect((await kyc.getRecord(userId))?.flaggedChecks).toEqual(newer);
    expect(
      await personaChange(userId, inquiryId, 'approved', '2026-11-21T06:33:00.000000Z', 'evt_fo_4', []),
    ).toMatchObject({ outcome: 'applied' });
    expect((await kyc.getRecord(userId))?.flaggedChecks).toBeUndefined();

    // An inquiry that replaces this one within the attempt starts without any.
    await personaChange(userId, inquiryId, 'approved', '2026-11-21T06:34:00.000000Z', 'evt_fo_5', older);
    const state = await kyc.getRecord(userId);
    expect(state?.flaggedChecks).toEqual(older);
    expect(
      await kyc.recordInquiry({
        userId,
        inquiryId: 'inq_flaggedorder_2',
        referenceId: userId,
        expectedVersion: state?.version ?? 0,
        at: clock.now().toISOString(),
      }),
    ).toBe('saved');
    expect(await kyc.getRecord(userId)).toMatchObject({ inquiryId: 'inq_flaggedorder_2' });
    expect((await kyc.getRecord(userId))?.flaggedChecks).toBeUndefined();
  });

  it('ends a completed-then-approved pair of the same second approved, whichever arrives first', async () => {
    for (const [index, order] of [
      ['inquiry.completed', 'inquiry.approved'],
      ['inquiry.approved', 'inquiry.completed'],
    ].entries()) {
      const userId = `auth0|tie-${index}`;
      const inquiryId = `inq_tie${index}`;
      await kyc.recordInquiry({
        userId,
        inquiryId,
        referenceId: userId,
        expectedVersion: null,
        at: clock.now().toISOString(),
      });
      for (const name of order) {
        await processPersonaEvent({ store: kyc, events, clock })({
          eventId: `evt_${index}_${name}`,
          name,
          createdAt: normaliseInstant('2026-11-21T06:45:00Z'),
          inquiry: { id: inquiryId, referenceId: userId },
        });
      }
      expect((await kyc.getRecord(userId))?.status, order.join(' then ')).toBe('approved');
    }
  });

  it('allows a new attempt once rejected, starts it in one transaction, and records every inquiry against the person', async () => {
    const userId = 'auth0|queue-attempts';
    await userInReview(userId, { flaggedChecks: [{ type: 'selfie', name: 'selfie_id_comparison' }] });
    const first = await kyc.getRecord(userId);
    await decideVerification({ store: kyc, events, clock, audit })({
      adminId: 'auth0|admin',
      userId,
      decision: { decision: 'rejected', reasonCode: 'selfie_mismatch' },
    });
    expect(await kyc.getState(userId)).toMatchObject({
      status: 'rejected',
      reasonCode: 'selfie_mismatch',
      attempt: 1,
      newAttemptAllowed: false,
    });
    const rejected = await kyc.getRecord(userId);
    // Not allowed yet: the person cannot start one.
    const refused = await kyc.startNewAttempt({
      userId,
      expectedVersion: rejected?.version ?? 0,
      inquiryId: 'inq_attempt_2',
      referenceId: userId,
      attempt: 2,
      at: clock.now().toISOString(),
    });
    expect(refused).toEqual({ outcome: 'conflict' });

    await allowNewAttempt({ store: kyc, clock, audit })({
      adminId: 'auth0|admin',
      userId,
      reason: 'Clearer selfie sent',
    });
    const allowed = await kyc.getRecord(userId);
    expect(allowed).toMatchObject({ status: 'rejected', newAttemptAllowed: true });
    const started = await kyc.startNewAttempt({
      userId,
      expectedVersion: allowed?.version ?? 0,
      inquiryId: 'inq_attempt_2',
      referenceId: userId,
      attempt: 2,
      at: clock.now().toISOString(),
    });
    expect(started).toMatchObject({
      outcome: 'saved',
      outbox: { event: { status: 'not_started', previousStatus: 'rejected', decidedBy: 'user' } },
    });
    expect(await kyc.getRecord(userId)).toMatchObject({
      status: 'not_started',
      inquiryId: 'inq_attempt_2',
      attempt: 2,
      newAttemptAllowed: false,
      reasonCode: null,
      lastEventAt: null,
    });
    // The new attempt's inquiry has no failed checks yet: the old one's are gone.
    expect((await kyc.getRecord(userId))?.flaggedChecks).toBeUndefined();
    expect(await kyc.findInquiryOwner('inq_attempt_2')).toEqual({ userId, referenceId: userId });
    expect(
      (await kyc.listInquiries(userId)).map(({ inquiryId, attempt }) => ({ inquiryId, attempt })),
    ).toEqual([
      { inquiryId: first?.inquiryId, attempt: 1 },
      { inquiryId: 'inq_attempt_2', attempt: 2 },
    ]);
    const item = (await list()({ status: 'all' })).items.find((entry) => entry.userId === userId);
    expect(item).toMatchObject({ status: 'not_started', submitted: false, attempt: 2, flaggedChecks: [] });
    expect(
      item?.history.map((entry) => [entry.previousStatus, entry.status, entry.decidedBy, entry.action]),
    ).toEqual([
      ['not_started', 'pending', 'persona', 'status_changed'],
      ['pending', 'rejected', 'admin', 'status_changed'],
      ['rejected', 'rejected', 'admin', 'new_attempt_allowed'],
      ['rejected', 'not_started', 'user', 'status_changed'],
    ]);

    // An erasure's retention reaches the inquiry mapping of every attempt, not only the current one.
    const retention = new DynamoDbRetention(client, dynamodb.tableNames);
    await retention.expireKycRecords(userId, ['inq_attempt_2'], 4_000_000_000);
    for (const inquiryId of [first?.inquiryId ?? '', 'inq_attempt_2']) {
      const { Responses } = await client.send(
        new BatchGetCommand({
          RequestItems: {
            [dynamodb.tableNames.kycState]: { Keys: [{ pk: `INQUIRY#${inquiryId}`, sk: 'INQUIRY' }] },
          },
        }),
      );
      expect(Responses?.[dynamodb.tableNames.kycState]?.[0]?.expiresAt).toBe(4_000_000_000);
    }
  });
});
