import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '#contracts/events.ts';
import { type KycStatusChanged, kycStatusChanged } from '#contracts/events.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { DynamoDbOnceMarker } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { notifyKycDecision } from '#lambdas/domain/account/notify.ts';
import { decideVerification } from '#lambdas/domain/kyc/decide-verification.ts';
import { relayOutbox } from '#lambdas/domain/kyc/publish-outbox.ts';
import { kycDecisionMarkerPrefix } from '#lambdas/event-rules.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { FakeDirectory, FakeMailer } from '#tests/lambdas/domain/account/fakes.ts';

// The transactional outbox publishes a status change at least once: when marking it published
// fails, the relay publishes it again, and EventBridge gives that publish a new event id. The
// decision email must still go out once. The KYC table and the markers are DynamoDB Local's.

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'outbox-email-' });
  client = localDocumentClient(dynamodb.endpoint);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

/** EventBridge as the targets see it: every accepted entry becomes an event with a fresh id. */
class Bus {
  readonly delivered: { id: string; detail: unknown }[] = [];
  async publish(events: DomainEvent[]) {
    for (const event of events) {
      // What crosses the bus is JSON.
      this.delivered.push({ id: randomUUID(), detail: JSON.parse(JSON.stringify(event.detail)) });
    }
  }
}

/** The real store, whose first `markPublished` fails after the publish went out (a throttle). */
class StoreFailingFirstMark extends DynamoDbKycStore {
  failures = 1;
  override async markPublished(outboxId: string, at: Date) {
    if (this.failures-- > 0) throw new Error('ProvisionedThroughputExceededException');
    return super.markPublished(outboxId, at);
  }
}

describe('a decision the outbox publishes twice', () => {
  it('sends the user one email although the two deliveries have different event ids', async () => {
    const store = new StoreFailingFirstMark(client, dynamodb.tableNames.kycState, {
      auditTable: dynamodb.tableNames.adminAuditLog,
    });
    const audit = new DynamoDbAdminAuditLog(client, dynamodb.tableNames.adminAuditLog);
    const bus = new Bus();
    const clock = { now: () => new Date() };
    const users = new FakeDirectory();
    const user = users.add({ email: 'ada@northwatch-defense.example', name: 'Ada' });
    await store.recordInquiry({
      userId: user.userId,
      inquiryId: 'inq_twice',
      referenceId: user.userId,
      expectedVersion: null,
      at: clock.now().toISOString(),
    });
    // Submitted (Persona's inquiry.completed), so a reviewer can decide; that change is published.
    const completed = await store.applyChange({
      userId: user.userId,
      expectedVersion: 1,
      eventId: 'evt_completed_twice',
      eventAt: '2026-11-21T06:00:00.000000Z',
      requireNewerEvent: true,
      inquiryId: 'inq_twice',
      previousStatus: 'not_started',
      status: 'pending',
      decidedBy: 'persona',
      actorId: 'persona',
      reason: 'inquiry.completed',
      reasonCode: null,
      at: clock.now().toISOString(),
    });
    if (completed.outcome !== 'applied' || completed.outboxId === null) throw new Error('not applied');
    store.failures = 0;
    await store.markPublished(completed.outboxId, clock.now());
    store.failures = 1;

    const decided = await decideVerification({ store, events: bus, clock, audit })({
      adminId: 'auth0|admin',
      userId: user.userId,
      decision: { decision: 'approved', reasonCode: 'identity_confirmed', reason: 'Documents check out' },
    });
    expect(decided.publish).toMatchObject({ published: false });
    expect(await relayOutbox({ store, events: bus, clock })()).toMatchObject({ published: 1, failed: 0 });
    expect(await store.listUnpublished(10)).toEqual([]);

    expect(bus.delivered).toHaveLength(2);
    expect(new Set(bus.delivered.map((event) => event.id)).size).toBe(2);

    const mailer = new FakeMailer();
    const notify = notifyKycDecision({
      profiles: { get: async () => undefined },
      users: async () => users,
      mailer,
      marker: new DynamoDbOnceMarker(client, dynamodb.tableNames.kycState, kycDecisionMarkerPrefix, clock),
      appUrl: 'https://app.example',
    });
    const outcomes: string[] = [];
    for (const event of bus.delivered) {
      const detail: KycStatusChanged = kycStatusChanged.parse(event.detail);
      outcomes.push(await notify(event.id, detail));
    }
    expect(outcomes).toEqual(['sent', 'duplicate']);
    expect(mailer.sent.map((message) => message.to)).toEqual(['ada@northwatch-defense.example']);
  });
});
