import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { AdminAuditEntry } from '#contracts/admin-audit.ts';
import { main as adminRole } from '#scripts/admin-role/run.ts';
import { main as auditAdmin } from '#scripts/audit-admin/run.ts';
import { registeredUser } from '#tests/helpers/registration.ts';
import { passwordToken } from '#tests/helpers/tokens.ts';

// Issue 26, item 4: every role change is appended to the admin audit trail. `npm run admin:role`
// against the local stack: its identity provider (the auth0KycSync client, with Auth0's rate
// limits) and its DynamoDB Local trail, seen the way an operator and an auditor see them.

const stack = inject('stack');
let stackFile: string;

beforeAll(async () => {
  stackFile = join(await mkdtemp(join(tmpdir(), 'admin-role-')), 'stack.json');
  await writeFile(stackFile, JSON.stringify(stack));
});

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: (text: string) => {
        out.stdout += text;
      },
      stderr: (text: string) => {
        out.stderr += text;
      },
      env: {},
    },
  };
}

async function changeRole(userId: string, role: string, reason: string) {
  const { out, io } = capture();
  const code = await adminRole(
    ['--stack', stackFile, '--user', userId, '--role', role, '--reason', reason],
    io,
  );
  return { code, ...out };
}

/** Today's entries about one person, as `npm run audit:admin` exports them (and its verdict). */
async function exportedEntries(userId: string) {
  const today = new Date().toISOString().slice(0, 10);
  const { out, io } = capture();
  const code = await auditAdmin(
    ['--from', today, '--to', today, '--format', 'json', '--stack', stackFile],
    io,
  );
  const report = JSON.parse(out.stdout) as { ok: boolean; records: AdminAuditEntry[] };
  return { code, ok: report.ok, entries: report.records.filter((entry) => entry.targetId === userId) };
}

const roleClaim = (token: string) => decodeJwt(token)[`${stack.idp.claimsNamespace}role`];

describe('npm run admin:role', () => {
  it('promotes a registered person and demotes them, each change in the trail; the same role twice appends nothing', async () => {
    const person = await registeredUser(stack, 'Role Change Ltd');
    expect(roleClaim(person.token)).toBe('user');

    const promoted = await changeRole(person.userId, 'admin', '  Joins the review team (ticket OPS-42)  ');
    expect(promoted.stderr).toBe('');
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain(`${person.userId} is now admin (was user).`);
    expect(promoted.stdout).toMatch(/Admin audit trail: entry #\d+ \(role_changed, by local:/);

    // Their next token carries the role.
    expect(roleClaim(await passwordToken(stack, person.email, person.password))).toBe('admin');

    const afterPromotion = await exportedEntries(person.userId);
    expect(afterPromotion.code).toBe(0);
    expect(afterPromotion.entries).toEqual([
      expect.objectContaining({
        actorType: 'operator',
        actorId: expect.stringMatching(/^local:/),
        action: 'role_changed',
        targetType: 'user',
        targetId: person.userId,
        reasonCode: null,
        reason: 'Joins the review team (ticket OPS-42)',
        details: { from: 'user', to: 'admin' },
      }),
    ]);

    // Asking again for the role they have: nothing to change, nothing appended.
    const again = await changeRole(person.userId, 'admin', 'Joins the review team');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${person.userId} is already admin: nothing to change, nothing appended.`);
    expect((await exportedEntries(person.userId)).entries).toHaveLength(1);

    const demoted = await changeRole(person.userId, 'user', 'Left the review team');
    expect(demoted.code).toBe(0);
    expect(demoted.stdout).toContain(`${person.userId} is now user (was admin).`);
    // The operator is told that tokens already issued keep the claim.
    expect(demoted.stdout).toContain('Tokens already issued keep the admin claim until they expire');
    expect(roleClaim(await passwordToken(stack, person.email, person.password))).toBe('user');

    const final = await exportedEntries(person.userId);
    expect(final.code).toBe(0);
    expect(final.ok).toBe(true);
    expect(
      final.entries.map((entry) => [entry.action, entry.details.from, entry.details.to, entry.reason]),
    ).toEqual([
      ['role_changed', 'user', 'admin', 'Joins the review team (ticket OPS-42)'],
      ['role_changed', 'admin', 'user', 'Left the review team'],
    ]);
  });

  it('puts the old role back and exits 1 when the entry cannot be appended: no role change without its entry', async () => {
    const person = await registeredUser(stack, 'Unrecorded Ltd');
    const { out, io } = capture();
    const code = await adminRole(
      ['--stack', stackFile, '--user', person.userId, '--role', 'admin', '--reason', 'Joins the review team'],
      io,
      {
        // The trail's head reads, then the append fails (throttled, say).
        wrapTrail: (trail) => ({
          head: () => trail.head(),
          append: async () => {
            throw new Error('ProvisionedThroughputExceededException: the trail is throttled');
          },
        }),
      },
    );
    expect(code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(
      `The role of ${person.userId} was changed to admin, but its entry could not be appended to the admin audit trail, so the role was put back to user: nothing changed.`,
    );
    expect(out.stderr).toContain('the trail is throttled');
    // Auth0 holds the old role again: the next token is a user's, and the trail has nothing on them.
    expect(roleClaim(await passwordToken(stack, person.email, person.password))).toBe('user');
    expect((await exportedEntries(person.userId)).entries).toEqual([]);
  });

  it('refuses an unknown user with exit 1, changing and appending nothing', async () => {
    const unknown = 'auth0|000000000000000000000000';
    const refused = await changeRole(unknown, 'admin', 'Typo in the user id');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`No user ${unknown} in Auth0; nothing was changed.`);
    expect((await exportedEntries(unknown)).entries).toEqual([]);
  });
});
