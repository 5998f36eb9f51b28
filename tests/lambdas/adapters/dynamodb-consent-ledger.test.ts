import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbConsentLedger } from '#lambdas/adapters/dynamodb-consent-ledger.ts';
import { DynamoDbConsentLedgerWithLanguageChoice } from '#lambdas/adapters/dynamodb-consent-ledger-choice.ts';
import { ConsentLedgerContentionError } from '#lambdas/domain/consent/errors.ts';
import { recordHash, verifyChain } from '#lambdas/domain/consent/hash-chain.ts';
import type { ConsentRecord } from '#lambdas/domain/ports.ts';
import { sampleEntry } from '#tests/lambdas/domain/fakes.ts';

const documentClient = DynamoDBDocumentClient.from(
  new DynamoDBClient({ region: 'eu-central-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
);
const ddb = mockClient(documentClient);
const clock = { now: () => new Date('2026-11-21T07:00:00Z') };
let ids = 0;
const ledger = (maxAttempts = 8) =>
  new DynamoDbConsentLedger(documentClient, 'ConsentLedger', {
    clock,
    newId: () => `id-${++ids}`,
    maxAttempts,
    backoff: async () => {},
  });
const conflict = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

const puts = () => ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
const onlyQueryAndPut = () =>
  ddb.calls().every((call) => call.args[0] instanceof QueryCommand || call.args[0] instanceof PutCommand);

beforeEach(() => {
  ddb.reset();
});

describe('DynamoDbConsentLedger.append', () => {
  it('starts a chain at sequence 1 with previousHash null, with a conditional put of the hashed record', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(PutCommand).resolves({});
    const record = await ledger().append(sampleEntry());

    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      KeyConditionExpression: 'subjectId = :subjectId',
      ExpressionAttributeValues: { ':subjectId': 'auth0|alice' },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    });
    expect(puts()).toEqual([
      {
        TableName: 'ConsentLedger',
        Item: record,
        ConditionExpression: 'attribute_not_exists(subjectId)',
      },
    ]);
    expect(record).toMatchObject({ sequence: 1, previousHash: null, recordedAt: '2026-11-21T07:00:00.000Z' });
    expect(record.hash).toBe(recordHash(record));
  });

  it('chains onto the newest record', async () => {
    const first = await (async () => {
      ddb.on(QueryCommand).resolves({ Items: [] });
      ddb.on(PutCommand).resolves({});
      return ledger().append(sampleEntry());
    })();
    ddb.reset();
    ddb.on(QueryCommand).resolves({ Items: [first] });
    ddb.on(PutCommand).resolves({});
    const second = await ledger().append(sampleEntry({ requestId: 'req-2' }));
    expect(second).toMatchObject({ sequence: 2, previousHash: first.hash });
    expect(verifyChain([first, second]).ok).toBe(true);
  });

  it('re-reads the head and retries when another append took the sequence first', async () => {
    const winner: ConsentRecord = await (async () => {
      ddb.on(QueryCommand).resolves({ Items: [] });
      ddb.on(PutCommand).resolves({});
      return ledger().append(sampleEntry({ requestId: 'other-tab' }));
    })();
    ddb.reset();
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [] })
      .resolves({ Items: [winner] });
    ddb.on(PutCommand).rejectsOnce(conflict()).resolves({});

    const record = await ledger().append(sampleEntry());

    expect(ddb.commandCalls(QueryCommand)).toHaveLength(2);
    expect(puts().map((put) => (put.Item as ConsentRecord).sequence)).toEqual([1, 2]);
    expect(record).toMatchObject({ sequence: 2, previousHash: winner.hash });
    expect(verifyChain([winner, record]).ok).toBe(true);
  });

  it('gives up after its bounded attempts with a contention error', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(PutCommand).rejects(conflict());
    await expect(ledger(5).append(sampleEntry())).rejects.toBeInstanceOf(ConsentLedgerContentionError);
    expect(puts()).toHaveLength(5);
  });

  it('does not retry other errors', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb
      .on(PutCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    await expect(ledger().append(sampleEntry())).rejects.toBeInstanceOf(
      ProvisionedThroughputExceededException,
    );
    expect(puts()).toHaveLength(1);
  });

  it('stores only the fields of a record, even when the entry carries more', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(PutCommand).resolves({});
    await ledger().append({ ...sampleEntry(), role: 'admin' } as ReturnType<typeof sampleEntry>);
    expect(puts()[0]?.Item).not.toHaveProperty('role');
  });
});

describe('DynamoDbConsentLedger reads', () => {
  it('lists a subject oldest first with consistent reads, across pages', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ sequence: 1 }], LastEvaluatedKey: { subjectId: 's', sequence: 1 } })
      .resolves({ Items: [{ sequence: 2 }] });
    const records = await ledger().listBySubject('s');
    expect(records.map((r) => r.sequence)).toEqual([1, 2]);
    const inputs = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(inputs[0]).toMatchObject({ ScanIndexForward: true, ConsistentRead: true });
    expect(inputs[1]?.ExclusiveStartKey).toEqual({ subjectId: 's', sequence: 1 });
  });

  it('lists a purpose between two times through the byPurposeAndTime index, across pages', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ sequence: 1 }], LastEvaluatedKey: { k: 1 } })
      .resolves({ Items: [{ sequence: 1 }] });
    const records = await ledger().listByPurpose(
      'privacy_policy',
      '2026-11-01T00:00:00.000Z',
      '2026-11-30T23:59:59.999Z',
    );
    expect(records).toHaveLength(2);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      IndexName: 'byPurposeAndTime',
      KeyConditionExpression: 'purpose = :purpose AND recordedAt BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':purpose': 'privacy_policy',
        ':from': '2026-11-01T00:00:00.000Z',
        ':to': '2026-11-30T23:59:59.999Z',
      },
    });
  });
});

describe('the append-only guarantee', () => {
  it('never sends UpdateItem or DeleteItem, whatever happens', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(PutCommand).rejectsOnce(conflict()).resolves({});
    ddb.on(UpdateCommand).rejects(new Error('UpdateItem must never be sent'));
    ddb.on(DeleteCommand).rejects(new Error('DeleteItem must never be sent'));
    const subject = ledger(3);
    await subject.append(sampleEntry());
    await subject.listBySubject('auth0|alice');
    await subject.listByPurpose('identity_verification', '2026-01-01', '2027-01-01');
    ddb.on(PutCommand).rejects(conflict());
    await expect(subject.append(sampleEntry())).rejects.toThrow();

    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
    expect(onlyQueryAndPut()).toBe(true);
  });
});

describe("an append carrying the person's language choice (issue 28)", () => {
  const withProfiles = () =>
    new DynamoDbConsentLedgerWithLanguageChoice(documentClient, 'ConsentLedger', 'Submissions', {
      clock,
      newId: () => `id-${++ids}`,
      backoff: async () => {},
    });
  const cancelled = (...codes: string[]) =>
    new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: {},
      CancellationReasons: codes.map((Code) => ({ Code })),
    });
  const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);

  it("writes the record and the profile's preferredLocale in one transaction", async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(TransactWriteCommand).resolves({});
    const record = await withProfiles().append(sampleEntry({ locale: 'de' }), { languageChoice: 'de' });
    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Put: {
              TableName: 'ConsentLedger',
              Item: record,
              ConditionExpression: 'attribute_not_exists(subjectId)',
            },
          },
          {
            Update: {
              TableName: 'Submissions',
              Key: { pk: 'PROFILE#auth0|alice', sk: 'PROFILE' },
              UpdateExpression: 'SET preferredLocale = :locale, preferredLocaleAt = :at',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasedAt)',
              ExpressionAttributeValues: { ':locale': 'de', ':at': record.recordedAt },
            },
          },
        ],
      },
    ]);
    expect(puts()).toEqual([]);
  });

  it('appends the record alone when the person has no profile', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    ddb.on(PutCommand).resolves({});
    const record = await withProfiles().append(sampleEntry(), { languageChoice: 'en' });
    expect(transactions()).toHaveLength(1);
    expect(puts()).toEqual([
      { TableName: 'ConsentLedger', Item: record, ConditionExpression: 'attribute_not_exists(subjectId)' },
    ]);
  });

  it('re-reads the head when another append took the sequence or a transaction conflicted', async () => {
    const head = {
      ...sampleEntry(),
      sequence: 1,
      consentId: 'c1',
      recordedAt: 't',
      previousHash: null,
      hash: 'h1',
    };
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [] })
      .resolvesOnce({ Items: [] })
      .resolves({ Items: [head] });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('ConditionalCheckFailed', 'None'))
      .rejectsOnce(cancelled('None', 'TransactionConflict'))
      .resolves({});
    const record = await withProfiles().append(sampleEntry(), { languageChoice: 'de' });
    expect(record).toMatchObject({ sequence: 2, previousHash: 'h1' });
    expect(transactions()).toHaveLength(3);
  });

  it('sends a plain put from the ledger without choices, and for an append without a choice', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(PutCommand).resolves({});
    await ledger().append(sampleEntry(), { languageChoice: 'de' });
    await withProfiles().append(sampleEntry());
    expect(transactions()).toEqual([]);
    expect(puts()).toHaveLength(2);
  });
});
