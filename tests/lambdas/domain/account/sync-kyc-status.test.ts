import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { KycStatusChanged } from '#contracts/events.ts';
import { type KycStatus, kycStatuses } from '#contracts/kyc.ts';
import { syncKycStatus } from '#lambdas/domain/account/sync-kyc-status.ts';
import { lambdaContext } from '#tests/fixtures/events/http-api-event.ts';
import { CallGate, FakeDirectory, FakeKyc, FakeProfiles } from './fakes.ts';

const event = (overrides: Partial<KycStatusChanged> = {}): KycStatusChanged => ({
  userId: 'auth0|seed1',
  status: 'approved',
  previousStatus: 'pending',
  inquiryId: 'inq_1',
  decidedBy: 'persona',
  occurredAt: '2026-11-21T07:00:00.000Z',
  ...overrides,
});

/** A directory that counts reads: the point of the profile is not to spend them (ADR 0059). */
class CountingDirectory extends FakeDirectory {
  reads = 0;
  override async get(userId: string) {
    this.reads += 1;
    return super.get(userId);
  }
}

function setup() {
  const users = new CountingDirectory();
  const kyc = new FakeKyc();
  const profiles = new FakeProfiles();
  const user = users.add({ email: 'a@b.example', appMetadata: { role: 'user', kyc_status: 'pending' } });
  /** The KYC table's state for the user, as the KYC feature writes it. */
  const table = (status: KycStatus, updatedAt: string) =>
    kyc.states.set(user.userId, { status, updatedAt, inquiryId: 'i' });
  return { users, kyc, profiles, user, table, sync: syncKycStatus({ users, kyc, profiles }) };
}

/**
 * An older PATCH of "pending" that timed out on its caller's side: Auth0 applies it just after the
 * next patch returns.
 */
function landsLateAfterTheNextPatch(users: FakeDirectory, update: FakeDirectory['updateAppMetadata']) {
  let late = true;
  users.updateAppMetadata = async (userId, patch) => {
    const result = await update(userId, patch);
    if (late) {
      late = false;
      await update(userId, { kyc_status: 'pending', kyc_updated_at: '2026-11-21T07:00:00.000Z' });
    }
    return result;
  };
}

describe('syncKycStatus', () => {
  it('copies the status from the KYC table, not from the event', async () => {
    const s = setup();
    s.kyc.states.set(s.user.userId, {
      status: 'rejected',
      updatedAt: '2026-11-21T08:00:00.000Z',
      inquiryId: 'inq_1',
    });
    expect(await s.sync(event({ userId: s.user.userId, status: 'approved' }))).toBe('synced');
    expect(s.users.patches).toEqual([
      {
        userId: s.user.userId,
        patch: { kyc_status: 'rejected', kyc_updated_at: '2026-11-21T08:00:00.000Z' },
      },
    ]);
  });

  it("uses the event's status when the table has no state", async () => {
    const s = setup();
    await s.sync(event({ userId: s.user.userId }));
    expect(s.users.patches[0]?.patch).toEqual({
      kyc_status: 'approved',
      kyc_updated_at: '2026-11-21T07:00:00.000Z',
    });
  });

  it('skips the PATCH when Auth0 already has that status and time (a redelivery)', async () => {
    const s = setup();
    await s.sync(event({ userId: s.user.userId }));
    expect(await s.sync(event({ userId: s.user.userId }))).toBe('in_sync');
    expect(s.users.patches).toHaveLength(1);
  });

  it("writes the profile of an account created outside registration from Auth0's answer, once", async () => {
    const s = setup();
    await s.sync(event({ userId: s.user.userId }));
    expect(s.profiles.profiles.get(s.user.userId)).toEqual({
      userId: s.user.userId,
      email: 'a@b.example',
      name: 'Seeded',
      organizationName: null,
      organizationType: null,
      organizationId: null,
      auth0Kyc: { status: 'approved', updatedAt: '2026-11-21T07:00:00.000Z' },
      auth0Unsettled: false,
    });
  });

  it('spends no Management API read once the profile knows what Auth0 holds: a change is one PATCH, a redelivery nothing', async () => {
    const s = setup();
    s.table('pending', '2026-11-21T07:00:00.000Z');
    await s.sync(event({ userId: s.user.userId, status: 'pending' }));
    const reads = s.users.reads;
    const patches = s.users.patches.length;

    s.table('approved', '2026-11-21T07:00:09.000Z');
    expect(await s.sync(event({ userId: s.user.userId }))).toBe('synced');
    expect(await s.sync(event({ userId: s.user.userId }))).toBe('in_sync');
    expect(s.users.reads).toBe(reads);
    expect(s.users.patches.length).toBe(patches + 1);
    expect((await s.users.get(s.user.userId))?.appMetadata).toMatchObject({
      kyc_status: 'approved',
      kyc_updated_at: '2026-11-21T07:00:09.000Z',
    });
  });

  it("costs one PATCH and no read for the first change of a registered account: registration recorded Auth0's answer (ADR 0062)", async () => {
    const s = setup();
    await s.profiles.saveAccount({
      userId: s.user.userId,
      email: 'a@b.example',
      name: 'A',
      auth0Kyc: { status: 'not_started', updatedAt: '' },
    });
    s.table('pending', '2026-11-21T07:00:00.000Z');
    expect(await s.sync(event({ userId: s.user.userId, status: 'pending' }))).toBe('synced');
    expect(s.users.reads).toBe(0);
    expect(s.users.patches).toHaveLength(1);
    // A later registration retry does not overwrite the sync's newer record.
    await s.profiles.saveAccount({
      userId: s.user.userId,
      email: 'a@b.example',
      name: 'A',
      auth0Kyc: { status: 'not_started', updatedAt: '' },
    });
    const lookup = await s.profiles.get(s.user.userId);
    expect(lookup?.kind === 'profile' && lookup.profile.auth0Kyc?.status).toBe('pending');
  });

  it('marks the profile unsettled when a PATCH times out, so the next delivery reads Auth0 and repairs a late landing', async () => {
    const s = setup();
    s.table('pending', '2026-11-21T07:00:00.000Z');
    await s.sync(event({ userId: s.user.userId, status: 'pending' }));
    s.table('approved', '2026-11-21T07:00:09.000Z');
    const update = s.users.updateAppMetadata.bind(s.users);
    s.users.updateAppMetadata = async () => {
      throw new Error('Auth0 users.update timed out after 5000 ms');
    };
    await expect(s.sync(event({ userId: s.user.userId }))).rejects.toThrow(/timed out/);
    expect(s.profiles.profiles.get(s.user.userId)?.auth0Unsettled).toBe(true);
    s.users.updateAppMetadata = update;

    // Another delivery patches "approved"; then the timed-out PATCH of an older status lands.
    landsLateAfterTheNextPatch(s.users, update);
    const reads = s.users.reads;
    expect(await s.sync(event({ userId: s.user.userId }))).toBe('synced');
    expect(s.users.reads).toBeGreaterThan(reads);
    expect((await s.users.get(s.user.userId))?.appMetadata).toMatchObject({ kyc_status: 'approved' });
    expect(s.profiles.profiles.get(s.user.userId)).toMatchObject({
      auth0Kyc: { status: 'approved', updatedAt: '2026-11-21T07:00:09.000Z' },
      auth0Unsettled: false,
    });
  });

  it('does not let an older event without table state undo a newer status', async () => {
    const s = setup();
    await s.sync(
      event({ userId: s.user.userId, status: 'approved', occurredAt: '2026-11-21T09:00:00.000Z' }),
    );
    expect(
      await s.sync(
        event({ userId: s.user.userId, status: 'pending', occurredAt: '2026-11-21T08:00:00.000Z' }),
      ),
    ).toBe('stale_event');
    expect((await s.users.get(s.user.userId))?.appMetadata.kyc_status).toBe('approved');
  });

  it('drops an event for a user that no longer exists', async () => {
    const s = setup();
    expect(await s.sync(event({ userId: 'auth0|gone' }))).toBe('user_missing');
    expect(s.users.patches).toEqual([]);
  });

  it('only ever sends a non-empty patch of the two flat keys, in any order of events and states', async () => {
    const status = fc.constantFrom(...kycStatuses);
    const time = fc
      .integer({ min: 0, max: 1000 })
      .map((n) => new Date(Date.UTC(2026, 10, 21) + n * 1000).toISOString());
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ status, time, table: fc.option(fc.record({ status, time })) }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (steps) => {
          const s = setup();
          for (const step of steps) {
            if (step.table)
              s.kyc.states.set(s.user.userId, {
                status: step.table.status,
                updatedAt: step.table.time,
                inquiryId: null,
              });
            await s.sync(event({ userId: s.user.userId, status: step.status, occurredAt: step.time }));
          }
          for (const { patch } of s.users.patches) {
            expect(Object.keys(patch).sort()).toEqual(['kyc_status', 'kyc_updated_at']);
            expect(Object.values(patch).every((value) => typeof value === 'string')).toBe(true);
          }
          const last = [...s.kyc.states.values()].at(-1);
          if (last) expect((await s.users.get(s.user.userId))?.appMetadata.kyc_status).toBe(last.status);
        },
      ),
    );
  });
});

describe('two concurrent syncs for one user', () => {
  it('end with Auth0 equal to the table when the earlier-read status lands last', async () => {
    const users = new FakeDirectory();
    const kyc = new FakeKyc();
    const user = users.add({
      email: 'c@d.example',
      appMetadata: { role: 'user', kyc_status: 'not_started' },
    });
    const reads = new CallGate();
    const patches = new CallGate();
    const sync = syncKycStatus({
      users: {
        get: (id) => users.get(id),
        updateAppMetadata: patches.wrap((id, p) => users.updateAppMetadata(id, p)),
      },
      kyc: { getState: reads.wrap((id) => kyc.getState(id)) },
      profiles: new FakeProfiles(),
    });
    kyc.states.set(user.userId, {
      status: 'pending',
      updatedAt: '2026-11-21T07:00:00.000Z',
      inquiryId: 'inq_1',
    });

    // Delivery A reads "pending" and is about to patch it.
    const a = sync(event({ userId: user.userId, status: 'pending' }));
    await (await reads.next()).release();
    const patchA = await patches.next();
    // Meanwhile Persona rejects; delivery B reads "rejected" and its patch lands first.
    kyc.states.set(user.userId, {
      status: 'rejected',
      updatedAt: '2026-11-21T07:00:05.000Z',
      inquiryId: 'inq_1',
    });
    const b = sync(event({ userId: user.userId, status: 'rejected' }));
    await (await reads.next()).release();
    await (await patches.next()).release();
    // A's older patch lands last.
    await patchA.release();
    await Promise.all([reads.open(), patches.open()]);
    await Promise.all([a, b]);

    expect((await users.get(user.userId))?.appMetadata).toMatchObject({
      kyc_status: 'rejected',
      kyc_updated_at: '2026-11-21T07:00:05.000Z',
    });
  });

  it('patches again when an older PATCH that timed out earlier is applied after its own', async () => {
    const s = setup();
    s.kyc.states.set(s.user.userId, {
      status: 'rejected',
      updatedAt: '2026-11-21T07:00:05.000Z',
      inquiryId: 'inq_1',
    });
    // An earlier delivery's PATCH of "pending" timed out on its side, but Auth0 applies it just
    // after this delivery's PATCH returns.
    landsLateAfterTheNextPatch(s.users, s.users.updateAppMetadata.bind(s.users));
    expect(await s.sync(event({ userId: s.user.userId }))).toBe('synced');
    expect((await s.users.get(s.user.userId))?.appMetadata).toMatchObject({
      kyc_status: 'rejected',
      kyc_updated_at: '2026-11-21T07:00:05.000Z',
    });
  });

  it('throws (so EventBridge retries) when the table keeps changing after every patch', async () => {
    const s = setup();
    let second = 0;
    const sync = syncKycStatus({
      users: s.users,
      profiles: s.profiles,
      kyc: {
        getState: async () => {
          second += 1;
          return {
            status: second % 2 ? 'approved' : 'rejected',
            updatedAt: `2026-11-21T07:00:${String(second).padStart(2, '0')}.000Z`,
            inquiryId: null,
            reasonCode: null,
            attempt: 1,
            newAttemptAllowed: false,
          };
        },
      },
    });
    await expect(sync(event({ userId: s.user.userId }))).rejects.toThrow(/changed at the same time/);
    expect(s.users.patches.length).toBeGreaterThan(1);
  });
});

describe('the sync-kyc-status event target', () => {
  it('logs and drops an event whose detail is invalid, without throwing (no pointless retries)', async () => {
    vi.stubEnv('KYC_STATE_TABLE', 'kyc');
    vi.stubEnv('SUBMISSIONS_TABLE', 'submissions');
    const { handler } = await import('#lambdas/handlers/sync-kyc-status.ts');
    await expect(
      handler(
        { id: 'evt-1', 'detail-type': 'KycStatusChanged', source: 'platform.kyc', detail: { userId: 1 } },
        lambdaContext,
      ),
    ).resolves.toBeUndefined();
    vi.unstubAllEnvs();
  });
});
