import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { auditAdminTrail } from '#lambdas/domain/admin-audit/audit.ts';
import { type AdminAuditFacts, auditEntryExpiry } from '#lambdas/domain/admin-audit/trail.ts';
import { recordHash, verifyChain } from '#lambdas/domain/consent/hash-chain.ts';
import { tables as tableDefs } from '#lambdas/tables.ts';
import { createTableInput, localCredentials, type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { main } from '#scripts/audit-admin/run.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The admin audit trail on DynamoDB Local (ADR 0078): one chain that concurrent appends cannot
// fork, its exports, and `npm run audit:admin` finding what was changed, moved or removed.

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let tables = 0;

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'admin-audit-' });
  client = localDocumentClient(dynamodb.endpoint);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

/** A trail on a fresh table, with a clock the test moves. */
async function freshTrail(start = '2026-11-02T09:00:00.000Z') {
  const name = `trail-${++tables}`;
  const admin = new DynamoDBClient({
    endpoint: dynamodb.endpoint,
    region: 'eu-central-1',
    credentials: localCredentials,
  });
  await admin.send(new CreateTableCommand(createTableInput(tableDefs.adminAuditLog, name)));
  admin.destroy();
  const clock = { at: new Date(start), now: () => clock.at };
  return { name, clock, trail: new DynamoDbAdminAuditLog(client, name, { clock, backoff: async () => {} }) };
}

const decision = (targetId: string, overrides: Partial<AdminAuditFacts> = {}): AdminAuditFacts => ({
  actorType: 'admin',
  actorId: 'auth0|reviewer-1',
  action: 'verification_decided',
  targetType: 'verification',
  targetId,
  reasonCode: 'identity_confirmed',
  reason: 'Passport and selfie match',
  details: { from: 'pending', to: 'approved', inquiryId: 'inq_1', attempt: 1 },
  requestId: 'req-1',
  ...overrides,
});

describe('DynamoDbAdminAuditLog', () => {
  it('chains each entry onto the one before, hashes everything but the hash and the expiry, and keeps it five years', async () => {
    const { trail, clock } = await freshTrail();
    const first = await trail.append(decision('auth0|ada'));
    clock.at = new Date('2026-11-02T09:05:00.000Z');
    const second = await trail.append(decision('auth0|bob', { reason: null }));
    expect([first.sequence, second.sequence]).toEqual([1, 2]);
    expect(first.previousHash).toBeNull();
    expect(second.previousHash).toBe(first.hash);
    const stored = await trail.listFrom(1);
    expect(stored).toHaveLength(2);
    for (const entry of stored) expect(recordHash(entry)).toBe(entry.hash);
    expect((stored[0] as unknown as { expiresAt: number }).expiresAt).toBe(
      Math.floor(Date.parse('2031-11-02T09:00:00.000Z') / 1000),
    );
    expect(auditEntryExpiry(new Date('2028-02-29T00:00:00.000Z'))).toBe(
      Date.parse('2033-03-01T00:00:00.000Z') / 1000,
    );
    expect(await trail.head()).toEqual({ sequence: 2, hash: second.hash });
  });

  it('never forks under concurrent appends: every entry gets its own sequence and the chain verifies', async () => {
    const { trail } = await freshTrail();
    const appended = await Promise.all(
      Array.from({ length: 6 }, (_, i) => trail.append(decision(`auth0|user-${i}`))),
    );
    expect(appended.map((entry) => entry.sequence).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(verifyChain(await trail.listFrom(1), { chainKey: 'chain' })).toMatchObject({
      ok: true,
      records: 6,
    });
  });

  it("lists one person's entries oldest first, the newest `limit` of them, and says when older ones were left out", async () => {
    const { trail, clock } = await freshTrail();
    for (let minute = 0; minute < 4; minute++) {
      clock.at = new Date(Date.UTC(2026, 10, 2, 9, minute));
      await trail.append(decision('auth0|ada', { reason: `note ${minute}` }));
      await trail.append(decision('auth0|bob'));
    }
    const all = await trail.listByTarget('auth0|ada', 10);
    expect(all.truncated).toBe(false);
    expect(all.entries.map((entry) => entry.reason)).toEqual(['note 0', 'note 1', 'note 2', 'note 3']);
    const newest = await trail.listByTarget('auth0|ada', 2);
    expect(newest).toMatchObject({ truncated: true });
    expect(newest.entries.map((entry) => entry.reason)).toEqual(['note 2', 'note 3']);
    expect(await trail.listByTarget('auth0|nobody', 10)).toEqual({ entries: [], truncated: false });
  });
});

describe('auditAdminTrail and npm run audit:admin', () => {
  /** Nine entries, one a day from 1 November: the period 4 to 6 November holds #4 to #6. */
  async function nineDays() {
    const fresh = await freshTrail();
    for (let day = 1; day <= 9; day++) {
      fresh.clock.at = new Date(Date.UTC(2026, 10, day, 12));
      await fresh.trail.append(decision(`auth0|user-${day}`, { reason: `day ${day}` }));
    }
    fresh.clock.at = new Date('2026-11-20T00:00:00.000Z');
    return fresh;
  }

  const cli = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env: {},
    });
    return { code, stdout, stderr };
  };

  async function stackFile(tableName: string) {
    const file = join(await mkdtemp(join(tmpdir(), 'audit-admin-')), 'stack.json');
    await writeFile(
      file,
      JSON.stringify({ dynamodb: { endpoint: dynamodb.endpoint, tables: { AdminAuditLog: tableName } } }),
    );
    return file;
  }

  it("exports a period's entries and verifies the chain from the entry before them to the head", async () => {
    const { trail, clock } = await nineDays();
    const report = await auditAdminTrail(trail, { from: '2026-11-04', to: '2026-11-06' }, clock);
    expect(report.ok).toBe(true);
    expect(report.records.map((entry) => entry.reason)).toEqual(['day 4', 'day 5', 'day 6']);
    expect(report.summary).toMatchObject({ records: 3, verifiedFrom: 3, chainRecords: 7 });
    expect(report.summary.head?.sequence).toBe(9);
  });

  it('finds an entry changed, an entry moved out of the period, and an entry removed', async () => {
    const changed = await nineDays();
    await client.send(
      new UpdateCommand({
        TableName: changed.name,
        Key: { chain: 'admin', sequence: 5 },
        UpdateExpression: 'SET reason = :r',
        ExpressionAttributeValues: { ':r': 'nothing to see' },
      }),
    );
    const changedReport = await auditAdminTrail(
      changed.trail,
      { from: '2026-11-04', to: '2026-11-06' },
      changed.clock,
    );
    expect(changedReport.ok).toBe(false);
    expect(changedReport.breaks).toEqual([expect.objectContaining({ sequence: 5, kind: 'hash_mismatch' })]);

    const moved = await nineDays();
    await client.send(
      new UpdateCommand({
        TableName: moved.name,
        Key: { chain: 'admin', sequence: 5 },
        UpdateExpression: 'SET recordedAt = :t',
        ExpressionAttributeValues: { ':t': '2026-10-01T00:00:00.000Z' },
      }),
    );
    const movedReport = await auditAdminTrail(
      moved.trail,
      { from: '2026-11-04', to: '2026-11-06' },
      moved.clock,
    );
    expect(movedReport.records.map((entry) => entry.sequence)).toEqual([4, 6]);
    expect(movedReport.breaks).toEqual([expect.objectContaining({ sequence: 5, kind: 'hash_mismatch' })]);

    const removed = await nineDays();
    await client.send(new DeleteCommand({ TableName: removed.name, Key: { chain: 'admin', sequence: 8 } }));
    const removedReport = await auditAdminTrail(
      removed.trail,
      { from: '2026-11-04', to: '2026-11-06' },
      removed.clock,
    );
    expect(removedReport.breaks).toEqual([
      expect.objectContaining({ sequence: 8, kind: 'missing_sequence' }),
    ]);
  });

  it('exits 0 with the CSV of an intact period, 1 on a break, 2 on a usage error', async () => {
    const { name } = await nineDays();
    const stack = await stackFile(name);
    const intact = await cli(['--from', '2026-11-04', '--to', '2026-11-06', '--stack', stack]);
    expect(intact.code).toBe(0);
    const lines = intact.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'chain,sequence,entryId,recordedAt,actorType,actorId,action,targetType,targetId,reasonCode,reason,details,requestId,previousHash,hash',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(
      ',admin,auth0|reviewer-1,verification_decided,verification,auth0|user-4,identity_confirmed,day 4,',
    );
    expect(intact.stderr).toContain('Chain intact.');
    expect(intact.stderr).toMatch(/Head: #9 [0-9a-f]{64}/);

    const json = await cli([
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
      '--format',
      'json',
      '--stack',
      stack,
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, summary: { records: 9, verifiedFrom: 1 } });

    await client.send(
      new UpdateCommand({
        TableName: name,
        Key: { chain: 'admin', sequence: 2 },
        UpdateExpression: 'SET actorId = :a',
        ExpressionAttributeValues: { ':a': 'auth0|someone-else' },
      }),
    );
    const broken = await cli(['--from', '2026-11-02', '--to', '2026-11-02', '--stack', stack]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('BROKEN: 1 break(s):');
    expect(broken.stderr).toContain('#2 [hash_mismatch]');

    expect((await cli(['--from', '2026-11-02', '--stack', stack])).code).toBe(2);
    expect((await cli(['--from', '2026-11-09', '--to', '2026-11-01', '--stack', stack])).code).toBe(2);
    const help = await cli(['--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: npm run audit:admin')]);
  });
});
