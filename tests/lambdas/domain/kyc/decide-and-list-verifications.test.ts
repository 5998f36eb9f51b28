import { describe, expect, it } from 'vitest';
import { verificationDecisionRequest, verificationListLimit } from '#contracts/admin-verifications.ts';
import { decideVerification } from '#lambdas/domain/kyc/decide-verification.ts';
import { VerificationNotFoundError } from '#lambdas/domain/kyc/errors.ts';
import { listVerifications } from '#lambdas/domain/kyc/list-verifications.ts';
import type { RegistrationLookup } from '#lambdas/domain/kyc/ports.ts';
import { normaliseInstant, processPersonaEvent } from '#lambdas/domain/kyc/process-persona-event.ts';
import type { RegistrationRecord } from '#lambdas/domain/registration/ports.ts';
import { RecordingPublisher } from '#tests/lambdas/domain/fakes.ts';
import { FakeKycStore } from './fake-kyc-store.ts';

const clock = { now: () => new Date('2026-11-21T07:00:00.000Z') };

function setup() {
  const store = new FakeKycStore();
  const events = new RecordingPublisher();
  return { store, published: events.published, decide: decideVerification({ store, events, clock }), events };
}

describe('decideVerification', () => {
  it('writes the admin decision with the admin id and reason in history, and publishes it', async () => {
    const { store, published, decide } = setup();
    store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1' });
    const result = await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'approved', reason: 'Documents checked' },
    });
    expect(result).toMatchObject({ status: 'approved', changed: true });
    expect(store.states.get('u1')).toMatchObject({ status: 'approved', decidedBy: 'admin' });
    expect(store.history).toEqual([
      expect.objectContaining({
        from: 'pending',
        to: 'approved',
        by: 'admin',
        actorId: 'admin-1',
        reason: 'Documents checked',
      }),
    ]);
    expect(published[0]?.detail).toMatchObject({
      userId: 'u1',
      status: 'approved',
      previousStatus: 'pending',
      decidedBy: 'admin',
    });
  });

  it('answers not found for a user without a verification', async () => {
    const { decide } = setup();
    await expect(
      decide({ adminId: 'admin-1', userId: 'nobody', decision: { decision: 'rejected', reason: 'No' } }),
    ).rejects.toBeInstanceOf(VerificationNotFoundError);
  });

  it('is not undone by a Persona event created before the decision', async () => {
    const { store, decide, events } = setup();
    store.seed({
      userId: 'u1',
      status: 'pending',
      inquiryId: 'inq_1',
      lastEventAt: normaliseInstant('2026-11-21T06:00:00Z'),
    });
    await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'rejected', reason: 'Forged ID' },
    });
    const late = await processPersonaEvent({ store, events, clock })({
      eventId: 'evt_late',
      name: 'inquiry.approved',
      createdAt: normaliseInstant('2026-11-21T06:30:00Z'),
      inquiry: { id: 'inq_1', referenceId: 'u1' },
    });
    expect(late).toEqual({ outcome: 'stale' });
    expect(store.states.get('u1')?.status).toBe('rejected');
  });
});

describe('verificationDecisionRequest', () => {
  it.each([
    [{ decision: 'approved', reason: 'ok' }, 'reason'],
    [{ decision: 'approved' }, 'reason'],
    [{ decision: 'approved', reason: 'x'.repeat(1001) }, 'reason'],
    [{ decision: 'maybe', reason: 'Looks fine' }, 'decision'],
    [{ decision: 'approved', reason: 'Looks fine', role: 'admin' }, ''],
  ])('refuses %j', (body, field) => {
    const result = verificationDecisionRequest.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join('.') ?? '').toBe(field);
  });

  it('accepts a decision with a trimmed reason', () => {
    expect(verificationDecisionRequest.parse({ decision: 'rejected', reason: '  Blurry  ' })).toEqual({
      decision: 'rejected',
      reason: 'Blurry',
    });
  });
});

/** The registration store's batch read, recording each call's user ids. */
class FakeRegistrations implements RegistrationLookup {
  readonly records = new Map<string, RegistrationRecord>();
  readonly reads: string[][] = [];
  add(userId: string, overrides: Partial<RegistrationRecord> = {}) {
    this.records.set(userId, {
      userId,
      email: `${userId}@helix-bio.example`,
      responsibleName: 'Rosa Responsible',
      responsibleTitle: 'Head of Security',
      responsiblePhone: '+49 30 1234567',
      organizationName: 'Helix Bio',
      organizationUrl: 'https://helix-bio.example',
      organizationType: 'commercial',
      createdAt: '2026-01-01T00:00:00.000Z',
      ...overrides,
    });
  }
  async getRegistrations(userIds: readonly string[]) {
    this.reads.push([...userIds]);
    return new Map(
      userIds.flatMap((id) => {
        const record = this.records.get(id);
        return record ? [[id, record] as const] : [];
      }),
    );
  }
}

function queue() {
  const { store, events, decide } = setup();
  const registrations = new FakeRegistrations();
  return { store, events, decide, registrations, list: listVerifications({ store, registrations }) };
}

describe('listVerifications', () => {
  it('lists one status, or every status newest first for all', async () => {
    const { store, list } = queue();
    store.seed({ userId: 'a', status: 'pending', updatedAt: '2026-01-02T00:00:00.000Z', inquiryId: 'inq_a' });
    store.seed({
      userId: 'b',
      status: 'approved',
      updatedAt: '2026-01-03T00:00:00.000Z',
      inquiryId: 'inq_b',
      decidedBy: 'persona',
    });
    store.seed({ userId: 'c', status: 'pending', updatedAt: '2026-01-04T00:00:00.000Z', inquiryId: 'inq_c' });
    store.seed({ userId: 'd', status: 'not_started', updatedAt: '2026-01-01T00:00:00.000Z' });
    const ids = async (filter: 'pending' | 'approved' | 'rejected' | 'all') =>
      (await list(filter)).items.map((item) => item.userId);
    expect((await ids('pending')).sort()).toEqual(['a', 'c']);
    expect(await ids('all')).toEqual(['c', 'b', 'a', 'd']);
    expect(await ids('rejected')).toEqual([]);
    expect((await list('approved')).items[0]).toMatchObject({
      userId: 'b',
      status: 'approved',
      inquiryId: 'inq_b',
      updatedAt: '2026-01-03T00:00:00.000Z',
      decidedBy: 'persona',
    });
  });

  it("gives each item the user's organization, contact and inquiry from the registration", async () => {
    const { store, registrations, list } = queue();
    store.seed({ userId: 'auth0|d1', status: 'pending', inquiryId: 'inq_d1' });
    registrations.add('auth0|d1', {
      email: 'dana@northwatch-defense.example',
      responsibleName: 'Dana Defense',
      organizationName: 'Northwatch Defense',
      organizationUrl: 'https://northwatch-defense.example',
      organizationType: 'defense',
    });
    const { items, truncated } = await list('pending');
    expect(truncated).toBe(false);
    expect(items).toEqual([
      {
        userId: 'auth0|d1',
        status: 'pending',
        inquiryId: 'inq_d1',
        updatedAt: '2026-01-01T00:00:00.000Z',
        decidedBy: null,
        email: 'dana@northwatch-defense.example',
        name: 'Dana Defense',
        organizationName: 'Northwatch Defense',
        organizationUrl: 'https://northwatch-defense.example',
        organizationType: 'defense',
        history: [],
      },
    ]);
  });

  it('lists an account without a registration with empty organization fields rather than guessing', async () => {
    const { store, list } = queue();
    store.seed({ userId: 'seeded', status: 'pending', inquiryId: 'inq_s' });
    expect((await list('pending')).items[0]).toMatchObject({
      userId: 'seeded',
      email: null,
      name: null,
      organizationName: null,
      organizationUrl: null,
      organizationType: null,
    });
  });

  it("carries the history oldest first: Persona's events and the admin's decision with its reason", async () => {
    const { store, events, decide, registrations, list } = queue();
    store.seed({ userId: 'u1', inquiryId: 'inq_1' });
    registrations.add('u1');
    const process = processPersonaEvent({ store, events, clock });
    await process({
      eventId: 'evt_review',
      name: 'inquiry.marked-for-review',
      createdAt: normaliseInstant('2026-11-21T06:00:00Z'),
      inquiry: { id: 'inq_1', referenceId: 'u1' },
    });
    await decide({
      adminId: 'auth0|admin-1',
      userId: 'u1',
      decision: { decision: 'approved', reason: 'ID matches' },
    });

    expect(await list('pending')).toEqual({ items: [], truncated: false });
    const [item] = (await list('approved')).items;
    expect(item?.decidedBy).toBe('admin');
    expect(item?.history).toEqual([
      {
        status: 'pending',
        previousStatus: 'not_started',
        decidedBy: 'persona',
        adminId: null,
        reason: 'inquiry.marked-for-review',
        at: clock.now().toISOString(),
      },
      {
        status: 'approved',
        previousStatus: 'pending',
        decidedBy: 'admin',
        adminId: 'auth0|admin-1',
        reason: 'ID matches',
        at: clock.now().toISOString(),
      },
    ]);
  });

  it('reads registrations and histories once per listing, for the listed users only', async () => {
    const { store, registrations, list } = queue();
    store.seed({ userId: 'p1', status: 'pending' });
    store.seed({ userId: 'p2', status: 'pending' });
    store.seed({ userId: 'r1', status: 'rejected' });
    await list('pending');
    expect(registrations.reads.map((ids) => [...ids].sort())).toEqual([['p1', 'p2']]);
    expect(store.historyReads.map((ids) => [...ids].sort())).toEqual([['p1', 'p2']]);
  });

  it('reads nothing more for an empty queue', async () => {
    const { store, registrations, list } = queue();
    expect(await list('pending')).toEqual({ items: [], truncated: false });
    expect(registrations.reads).toEqual([]);
    expect(store.historyReads).toEqual([]);
  });

  it(`lists at most the newest ${verificationListLimit} and says more exist`, async () => {
    const { store, list } = queue();
    for (let index = 0; index < verificationListLimit + 5; index++) {
      const day = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
      store.seed({ userId: `u${index}`, status: index % 2 === 0 ? 'pending' : 'approved', updatedAt: day });
    }
    const { items, truncated } = await list('all');
    expect(truncated).toBe(true);
    expect(items).toHaveLength(verificationListLimit);
    expect(items[0]?.userId).toBe(`u${verificationListLimit + 4}`);
    expect((await list('approved')).truncated).toBe(false);
  });
});
