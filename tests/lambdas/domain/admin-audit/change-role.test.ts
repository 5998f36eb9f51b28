import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '#contracts/kyc.ts';
import {
  changeRole,
  RoleChangeNotRecordedError,
  RoleNotChangedError,
  UnknownUserError,
} from '#lambdas/domain/admin-audit/change-role.ts';
import {
  type AdminAuditEntry,
  type AdminAuditFacts,
  type AuditHead,
  chainEntry,
} from '#lambdas/domain/admin-audit/trail.ts';
import type { AppMetadata, DirectoryUser } from '#lambdas/domain/ports.ts';

// `npm run admin:role`'s use case (ADR 0078): no role change without its entry in the admin trail.

const SUB = 'auth0|64f0c0ffee';

/** Auth0's users as the command sees them; PATCHes merge top-level keys and null deletes one. */
class MemoryUsers {
  readonly users = new Map<string, AppMetadata>();
  readonly patches: { userId: string; patch: Record<string, unknown> }[] = [];
  /** Patches answered with an error (a 503 or a timeout); `applied`: the tenant applied it anyway. */
  failPatches: { times: number; applied: boolean } = { times: 0, applied: false };
  failReads = false;

  async get(userId: string): Promise<DirectoryUser | undefined> {
    if (this.failReads) throw new Error('Auth0 users.get failed with 503');
    const metadata = this.users.get(userId);
    return (
      metadata && {
        userId,
        email: 'x@example.org',
        emailVerified: true,
        name: 'X',
        appMetadata: { ...metadata },
      }
    );
  }

  async updateAppMetadata(userId: string, patch: { role?: Role | null }): Promise<AppMetadata | undefined> {
    this.patches.push({ userId, patch });
    const apply = () => {
      const next: AppMetadata = { ...this.users.get(userId) };
      if (patch.role === null) delete next.role;
      else if (patch.role) next.role = patch.role;
      this.users.set(userId, next);
      return next;
    };
    if (this.failPatches.times > 0) {
      this.failPatches.times -= 1;
      if (this.failPatches.applied) apply();
      throw new Error('Auth0 users.update timed out after 15000 ms');
    }
    return apply();
  }
}

class MemoryTrail {
  readonly entries: AdminAuditEntry[] = [];
  failing = false;
  failingHead = false;

  async head(): Promise<AuditHead | undefined> {
    if (this.failingHead) throw new Error('AccessDeniedException: not authorized to perform dynamodb:Query');
    const last = this.entries.at(-1);
    return last && { sequence: last.sequence, hash: last.hash };
  }

  async append(facts: AdminAuditFacts): Promise<AdminAuditEntry> {
    if (this.failing) throw new Error('ProvisionedThroughputExceededException');
    const { expiresAt: _expiresAt, ...entry } = chainEntry(facts, await this.head(), {
      entryId: `e${this.entries.length + 1}`,
      recordedAt: new Date('2026-11-27T12:00:00Z'),
    });
    this.entries.push(entry);
    return entry;
  }
}

let users: MemoryUsers;
let trail: MemoryTrail;
const run = (role: Role, reason = 'Joins the review team') =>
  changeRole({ users, trail, operatorId: 'arn:aws:sts::123456789012:assumed-role/Ops/jane' })({
    userId: SUB,
    role,
    reason,
  });

beforeEach(() => {
  users = new MemoryUsers();
  trail = new MemoryTrail();
  users.users.set(SUB, { role: 'user', organization_type: 'commercial', kyc_status: 'approved' });
});

describe('changing a role', () => {
  it('sets app_metadata.role and appends who, what, on whom and why', async () => {
    const result = await run('admin');
    expect(result).toMatchObject({ kind: 'changed', from: 'user', to: 'admin' });
    expect(users.patches).toEqual([{ userId: SUB, patch: { role: 'admin' } }]);
    expect(users.users.get(SUB)).toEqual({
      role: 'admin',
      organization_type: 'commercial',
      kyc_status: 'approved',
    });
    expect(trail.entries).toEqual([
      expect.objectContaining({
        actorType: 'operator',
        actorId: 'arn:aws:sts::123456789012:assumed-role/Ops/jane',
        action: 'role_changed',
        targetType: 'user',
        targetId: SUB,
        reasonCode: null,
        reason: 'Joins the review team',
        details: { from: 'user', to: 'admin' },
      }),
    ]);
  });

  it('records a person without a role as having been a user', async () => {
    users.users.set(SUB, { kyc_status: 'approved' });
    await run('admin');
    expect(trail.entries[0]?.details).toEqual({ from: 'user', to: 'admin' });
  });

  it('changes nothing and appends nothing when the person already has the role', async () => {
    users.users.set(SUB, { kyc_status: 'approved' });
    expect(await run('user')).toEqual({ kind: 'unchanged', userId: SUB, role: 'user' });
    expect(users.patches).toEqual([]);
    expect(trail.entries).toEqual([]);
  });

  it('refuses an unknown user, changing nothing', async () => {
    users.users.clear();
    await expect(run('admin')).rejects.toThrow(UnknownUserError);
    await expect(run('admin')).rejects.toThrow(`No user ${SUB} in Auth0; nothing was changed.`);
    expect(users.patches).toEqual([]);
    expect(trail.entries).toEqual([]);
  });

  it('stops before the PATCH when the trail cannot be read (a wrong table, no permission)', async () => {
    trail.failingHead = true;
    await expect(run('admin')).rejects.toThrow('not authorized');
    expect(users.patches).toEqual([]);
  });
});

describe('no role change without its entry', () => {
  it('puts the old role back when the entry cannot be appended, and says so', async () => {
    trail.failing = true;
    const error = await run('admin').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RoleChangeNotRecordedError);
    expect(error).toMatchObject({ restored: true, from: 'user', to: 'admin' });
    expect((error as Error).message).toContain('so the role was put back to user: nothing changed');
    expect(users.patches.map((p) => p.patch)).toEqual([{ role: 'admin' }, { role: 'user' }]);
    expect(users.users.get(SUB)?.role).toBe('user');
    expect(trail.entries).toEqual([]);
  });

  it('puts back exactly what was there: no role key before, none after', async () => {
    users.users.set(SUB, { kyc_status: 'approved' });
    trail.failing = true;
    await expect(run('admin')).rejects.toThrow(RoleChangeNotRecordedError);
    expect(users.patches.map((p) => p.patch)).toEqual([{ role: 'admin' }, { role: null }]);
    expect(users.users.get(SUB)).toEqual({ kyc_status: 'approved' });
  });

  it('tells the operator what to fix by hand when putting the old role back fails too', async () => {
    trail.failing = true;
    const original = users.updateAppMetadata.bind(users);
    let calls = 0;
    users.updateAppMetadata = async (userId, patch) => {
      calls += 1;
      if (calls === 2) throw new Error('Auth0 users.update failed with 503');
      return original(userId, patch);
    };
    const error = await run('admin').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ restored: false });
    expect((error as Error).message).toContain(`${SUB} is admin with no entry`);
    expect((error as Error).message).toContain('Set app_metadata.role back to "user" in the Auth0 dashboard');
  });

  it('appends nothing when the PATCH fails and Auth0 still holds the old role', async () => {
    users.failPatches = { times: 1, applied: false };
    const error = await run('admin').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RoleNotChangedError);
    expect(error).toMatchObject({ confirmed: true });
    expect(trail.entries).toEqual([]);
  });

  it('records the change when the PATCH timed out but Auth0 applied it', async () => {
    users.failPatches = { times: 1, applied: true };
    expect(await run('admin')).toMatchObject({ kind: 'changed', to: 'admin' });
    expect(trail.entries.map((entry) => entry.details)).toEqual([{ from: 'user', to: 'admin' }]);
  });

  it('says the outcome is unknown when the PATCH fails and the user cannot be read again', async () => {
    users.failPatches = { times: 1, applied: false };
    const original = users.get.bind(users);
    let reads = 0;
    users.get = async (userId) => {
      reads += 1;
      if (reads === 2) throw new Error('Auth0 users.get failed with 503');
      return original(userId);
    };
    // A demotion: an unreadable user must not count as "now a user".
    users.users.set(SUB, { role: 'admin' });
    const error = await run('user').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ confirmed: false });
    expect((error as Error).message).toContain('may or may not have been applied');
    expect(trail.entries).toEqual([]);
  });
});
