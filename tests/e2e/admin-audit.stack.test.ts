import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { AdminAuditEntry, VerificationAuditTrailResponse } from '#contracts/admin-audit.ts';
import { main } from '#scripts/audit-admin/run.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import {
  enrolledUser,
  personaEvent,
  sendWebhook,
  settleEvents,
  webApi,
} from '#tests/helpers/persona-webhooks.ts';
import { passwordToken } from '#tests/helpers/tokens.ts';

// Issue 26, item 4, through the web origin: a reviewer's decision and its reversal land in the
// admin audit trail with who, when, what, on whom and why; the review screen's trail route shows
// them; `npm run audit:admin` exports them and verifies the chain, and exits 1 once an entry is
// changed in the table.

const stack = inject('stack');
const api = webApi(stack);
const db = stackDb(stack);

let adminToken: string;
let adminId: string;
let stackFile: string;
beforeAll(async () => {
  const admin = stack.accounts.find((account) => account.role === 'admin');
  if (!admin) throw new Error('stack.json has no admin account');
  adminToken = await passwordToken(stack, admin.email, admin.password);
  adminId = String(decodeJwt(adminToken).sub);
  stackFile = join(await mkdtemp(join(tmpdir(), 'admin-audit-')), 'stack.json');
  await writeFile(stackFile, JSON.stringify(stack));
});

async function auditAdmin(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main([...argv, '--stack', stackFile], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: {},
  });
  return { code, stdout, stderr };
}

const today = () => new Date().toISOString().slice(0, 10);

describe('the admin audit trail', () => {
  it('records a decision and its reversal, shows them on the review screen, and exports and verifies them', async () => {
    const user = await enrolledUser(stack);
    expect((await sendWebhook(stack, personaEvent('inquiry.completed', user, new Date()))).status).toBe(200);
    await settleEvents(stack);

    const path = `/api/admin/verifications/${encodeURIComponent(user.userId)}`;
    const approve = await api(`${path}/decision`, {
      method: 'POST',
      token: adminToken,
      body: { decision: 'approved', reasonCode: 'identity_confirmed', reason: 'Passport and selfie match' },
    });
    expect(approve.status).toBe(200);
    const reverse = await api(`${path}/decision`, {
      method: 'POST',
      token: adminToken,
      body: {
        decision: 'rejected',
        reasonCode: 'document_unreadable',
        reason: 'Second look: the MRZ is cut off',
      },
    });
    expect(reverse.status).toBe(200);

    // The review screen's view: only an admin may read it.
    expect((await api(`${path}/audit-trail`, { token: user.token })).status).toBe(403);
    const trail = await api(`${path}/audit-trail`, { token: adminToken });
    expect(trail.status).toBe(200);
    const body = (await trail.json()) as VerificationAuditTrailResponse;
    expect(body).toMatchObject({ userId: user.userId, truncated: false });
    expect(body.entries.map((entry) => [entry.action, entry.details.from, entry.details.to])).toEqual([
      ['verification_decided', 'pending', 'approved'],
      ['verification_reversed', 'approved', 'rejected'],
    ]);
    expect(body.entries[1]).toMatchObject({
      actorType: 'admin',
      actorId: adminId,
      targetType: 'verification',
      targetId: user.userId,
      reasonCode: 'document_unreadable',
      reason: 'Second look: the MRZ is cut off',
      previousHash: body.entries[0]?.hash,
    });
    expect(body.entries[1]?.requestId).toEqual(expect.any(String));

    // The auditor's export of today: both entries, and the chain intact.
    const exported = await auditAdmin(['--from', today(), '--to', today(), '--format', 'json']);
    expect(exported.stderr).toContain('Chain intact.');
    expect(exported.code).toBe(0);
    const report = JSON.parse(exported.stdout) as { ok: boolean; records: AdminAuditEntry[] };
    expect(report.ok).toBe(true);
    const mine = report.records.filter((entry) => entry.targetId === user.userId);
    expect(mine.map((entry) => entry.entryId)).toEqual(body.entries.map((entry) => entry.entryId));

    // Someone with write access to the table softens the reason: the audit finds it.
    const [, reversal] = body.entries;
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName('AdminAuditLog'),
        Key: { chain: 'admin', sequence: reversal?.sequence },
        UpdateExpression: 'SET reason = :reason',
        ExpressionAttributeValues: { ':reason': 'Routine check' },
      }),
    );
    const broken = await auditAdmin(['--from', today(), '--to', today()]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`#${reversal?.sequence} [hash_mismatch]`);
    // Put back, so that the other tests of this stack audit an intact trail.
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName('AdminAuditLog'),
        Key: { chain: 'admin', sequence: reversal?.sequence },
        UpdateExpression: 'SET reason = :reason',
        ExpressionAttributeValues: { ':reason': reversal?.reason },
      }),
    );
    expect((await auditAdmin(['--from', today(), '--to', today()])).code).toBe(0);
  });
});
