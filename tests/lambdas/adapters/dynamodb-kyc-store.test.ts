import {
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoDbKycStore } from '#lambdas/adapters/dynamodb-kyc-store.ts';
import { EventBridgePublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { StorageUnavailableError } from '#lambdas/domain/errors.ts';
import type { StatusChange } from '#lambdas/domain/kyc/ports.ts';
import { processPersonaEvent } from '#lambdas/domain/kyc/process-persona-event.ts';
import { relayOutbox } from '#lambdas/domain/kyc/publish-outbox.ts';

const table = 'kyc-test';
const ddb = mockClient(DynamoDBDocumentClient);
const eventBridge = mockClient(EventBridgeClient);
const store = new DynamoDbKycStore(
  DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-central-1' })),
  table,
);
const clock = { now: () => new Date('2026-11-21T07:00:00.000Z') };

afterEach(() => {
  ddb.reset();
  eventBridge.reset();
});

const change: StatusChange = {
  userId: 'auth0|u1',
  expectedVersion: 3,
  eventId: 'evt_1',
  eventAt: '2026-11-21T06:00:00.000000Z',
  requireNewerEvent: true,
  inquiryId: 'inq_1',
  previousStatus: 'pending',
  status: 'approved',
  decidedBy: 'persona',
  actorId: 'persona',
  reason: 'inquiry.approved',
  reasonCode: null,
  at: '2026-11-21T07:00:00.000Z',
};

const canceled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

describe('DynamoDbKycStore.applyChange', () => {
  it('writes state, history, event marker and outbox item in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const result = await store.applyChange(change);
    expect(result).toMatchObject({ outcome: 'applied', outboxId: '2026-11-21T07:00:00.000Z#evt_1' });
    const calls = ddb.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(1);
    const items = calls[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((item) => item.Update?.Key ?? item.Put?.Item?.pk)).toEqual([
      { pk: 'USER#auth0|u1', sk: 'STATE' },
      'EVENT#evt_1',
      'USER#auth0|u1',
      'OUTBOX',
    ]);
    expect(items[0]?.Update?.ConditionExpression).toContain('lastEventAt < :eventAt');
    expect(items[0]?.Update?.ConditionExpression).toContain('version = :expected');
    expect(items[1]?.Put?.ConditionExpression).toContain('attribute_not_exists(pk)');
    expect(items[1]?.Put?.Item?.expiresAt).toBe(Math.floor(Date.parse(change.at) / 1000) + 45 * 24 * 3600);
    expect(items[2]?.Put?.Item).toMatchObject({
      from: 'pending',
      to: 'approved',
      by: 'persona',
      eventId: 'evt_1',
    });
    expect(items[3]?.Put?.Item?.detail).toMatchObject({
      userId: 'auth0|u1',
      status: 'approved',
      previousStatus: 'pending',
    });
  });

  it('treats a transaction cancelled by the event-id marker as a duplicate', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(canceled(['ConditionalCheckFailed', 'ConditionalCheckFailed', 'None', 'None']));
    expect(await store.applyChange(change)).toEqual({ outcome: 'duplicate' });
  });

  it('reports a conflict when only the state condition failed (newer event or concurrent write)', async () => {
    ddb.on(TransactWriteCommand).rejects(canceled(['ConditionalCheckFailed', 'None', 'None', 'None']));
    expect(await store.applyChange(change)).toEqual({ outcome: 'conflict' });
    ddb.on(TransactWriteCommand).rejects(canceled(['TransactionConflict', 'None', 'None', 'None']));
    expect(await store.applyChange(change)).toEqual({ outcome: 'conflict' });
  });

  it('lets throttling propagate, so the webhook fails and Persona retries', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }));
    await expect(store.applyChange(change)).rejects.toBeInstanceOf(ProvisionedThroughputExceededException);
  });
});

describe('DynamoDbKycStore.readForEvent', () => {
  const marker = (expiresAt: number) => ({ pk: 'EVENT#evt_1', sk: 'EVENT', expiresAt });

  it('counts an expired event marker as not processed (DynamoDB deletes TTL items late)', async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: [marker(1_000)] } });
    expect(await store.readForEvent('auth0|u1', 'evt_1', new Date(2_000_000))).toEqual({
      record: undefined,
      expiring: false,
      processed: false,
    });
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: [marker(3_000)] } });
    expect((await store.readForEvent('auth0|u1', 'evt_1', new Date(2_000_000))).processed).toBe(true);
  });

  it('asks again for the keys DynamoDB left unprocessed', async () => {
    const state = { pk: 'USER#auth0|u1', sk: 'STATE', userId: 'auth0|u1', status: 'pending', version: 3 };
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [table]: [state] },
        UnprocessedKeys: { [table]: { Keys: [{ pk: 'EVENT#evt_1', sk: 'EVENT' }], ConsistentRead: true } },
      })
      .resolvesOnce({ Responses: { [table]: [marker(3_000)] } });
    const read = await store.readForEvent('auth0|u1', 'evt_1', new Date(2_000_000));
    expect(read).toMatchObject({ record: { status: 'pending', version: 3 }, processed: true });
    const calls = ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems?.[table]);
    expect(calls).toEqual([
      {
        Keys: [
          { pk: 'USER#auth0|u1', sk: 'STATE' },
          { pk: 'EVENT#evt_1', sk: 'EVENT' },
        ],
        ConsistentRead: true,
      },
      { Keys: [{ pk: 'EVENT#evt_1', sk: 'EVENT' }], ConsistentRead: true },
    ]);
  });

  it('gives up as unavailable when DynamoDB keeps leaving keys unprocessed, so EventBridge retries', async () => {
    ddb.on(BatchGetCommand).resolves({
      Responses: { [table]: [] },
      UnprocessedKeys: { [table]: { Keys: [{ pk: 'EVENT#evt_1', sk: 'EVENT' }], ConsistentRead: true } },
    });
    await expect(store.readForEvent('auth0|u1', 'evt_1', new Date(2_000_000))).rejects.toBeInstanceOf(
      StorageUnavailableError,
    );
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(4);
  });
});

describe('a webhook whose publish fails after the write', () => {
  function mockTable() {
    ddb.on(GetCommand, { Key: { pk: 'INQUIRY#inq_1', sk: 'INQUIRY' } }).resolves({
      Item: { pk: 'INQUIRY#inq_1', sk: 'INQUIRY', userId: 'auth0|u1', referenceId: 'auth0|u1' },
    });
    const state = {
      pk: 'USER#auth0|u1',
      sk: 'STATE',
      userId: 'auth0|u1',
      status: 'pending',
      inquiryId: 'inq_1',
      version: 3,
      updatedAt: 'x',
    };
    ddb.on(GetCommand, { Key: { pk: 'USER#auth0|u1', sk: 'STATE' } }).resolves({ Item: state });
    // The state and no marker for evt_1 (not processed yet).
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: [state] } });
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
  }
  const publisher = new EventBridgePublisher(new EventBridgeClient({ region: 'eu-central-1' }), 'bus');
  const event = {
    eventId: 'evt_1',
    name: 'inquiry.approved',
    createdAt: '2026-11-21T06:00:00.000000Z',
    inquiry: { id: 'inq_1', referenceId: 'auth0|u1' },
  };

  it('keeps the outbox item unpublished, and the relay publishes and marks it later', async () => {
    mockTable();
    eventBridge
      .on(PutEventsCommand)
      .resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure' }] });
    const result = await processPersonaEvent({ store, events: publisher, clock })(event);
    expect(result).toMatchObject({ outcome: 'applied', status: 'approved', publish: { published: false } });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);

    const outboxItem = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[3]?.Put?.Item;
    expect(outboxItem?.pk).toBe('OUTBOX');
    ddb.on(QueryCommand).resolves({ Items: [outboxItem as Record<string, unknown>] });
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
    expect(await relayOutbox({ store, events: publisher, clock })()).toMatchObject({
      published: 1,
      failed: 0,
    });

    const query = ddb.commandCalls(QueryCommand)[0]?.args[0].input;
    expect(query?.FilterExpression).toBe('attribute_not_exists(publishedAt)');
    const published = eventBridge.commandCalls(PutEventsCommand).at(-1)?.args[0].input.Entries?.[0];
    expect(published).toMatchObject({ Source: 'platform.kyc', DetailType: 'KycStatusChanged' });
    expect(JSON.parse(published?.Detail ?? '{}')).toMatchObject({ userId: 'auth0|u1', status: 'approved' });
    const mark = ddb.commandCalls(UpdateCommand)[0]?.args[0].input;
    expect(mark?.Key).toEqual({ pk: 'OUTBOX', sk: outboxItem?.sk });
    expect(mark?.UpdateExpression).toContain('publishedAt');
  });

  it('leaves the item for the next run when the relay cannot publish either', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [
        {
          pk: 'OUTBOX',
          sk: 's1',
          detail: {
            userId: 'u',
            status: 'approved',
            previousStatus: 'pending',
            inquiryId: null,
            decidedBy: 'admin',
            occurredAt: 'x',
          },
        },
      ],
    });
    eventBridge.on(PutEventsCommand).rejects(new Error('ServiceUnavailable'));
    expect(await relayOutbox({ store, events: publisher, clock })()).toMatchObject({
      published: 0,
      failed: 1,
    });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
