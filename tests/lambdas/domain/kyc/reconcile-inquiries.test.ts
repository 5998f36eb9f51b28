import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '#contracts/events.ts';
import { normaliseInstant, personaEventFromReceived } from '#lambdas/domain/kyc/persona-event.ts';
import { processPersonaEvent } from '#lambdas/domain/kyc/process-persona-event.ts';
import {
  type InquirySnapshot,
  maxConsecutiveFailures,
  reconcileInquiries,
  synthesiseEvent,
} from '#lambdas/domain/kyc/reconcile-inquiries.ts';
import { localKycTables } from '#tests/helpers/kyc-table.ts';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };

const snapshot = (overrides: Partial<InquirySnapshot> = {}): InquirySnapshot => ({
  inquiryId: 'inq_1',
  status: 'approved',
  referenceId: 'auth0|u1',
  sessionToken: null,
  completedAt: '2026-11-21T06:00:01.000Z',
  failedAt: null,
  markedForReviewAt: null,
  decisionedAt: '2026-11-21T06:00:02.000Z',
  ...overrides,
});

describe('synthesiseEvent', () => {
  it('says what the lost webhook said, at the time Persona recorded for that step', () => {
    expect(synthesiseEvent(snapshot())).toEqual({
      eventId: 'reconcile:inq_1:inquiry.approved:2026-11-21T06:00:02.000000Z',
      name: 'inquiry.approved',
      createdAt: '2026-11-21T06:00:02.000000Z',
      inquiryId: 'inq_1',
      inquiryStatus: 'approved',
      referenceId: 'auth0|u1',
    });
    expect(synthesiseEvent(snapshot({ status: 'declined' }))?.name).toBe('inquiry.declined');
    expect(synthesiseEvent(snapshot({ status: 'failed', failedAt: '2026-11-21T06:00:03Z' }))).toMatchObject({
      name: 'inquiry.failed',
      createdAt: '2026-11-21T06:00:03.000000Z',
    });
    expect(synthesiseEvent(snapshot({ status: 'completed', decisionedAt: null }))).toMatchObject({
      name: 'inquiry.completed',
      createdAt: '2026-11-21T06:00:01.000000Z',
    });
    expect(
      synthesiseEvent(
        snapshot({ status: 'needs_review', decisionedAt: null, markedForReviewAt: '2026-11-21T06:00:04Z' }),
      ),
    ).toMatchObject({ name: 'inquiry.marked-for-review', createdAt: '2026-11-21T06:00:04.000000Z' });
  });

  it('gives the same id on every run, and a different one for another step or time', () => {
    expect(synthesiseEvent(snapshot())?.eventId).toBe(synthesiseEvent(snapshot())?.eventId);
    expect(synthesiseEvent(snapshot({ decisionedAt: '2026-11-21T06:00:05Z' }))?.eventId).not.toBe(
      synthesiseEvent(snapshot())?.eventId,
    );
  });

  it('has nothing to say for an inquiry not submitted, or without the time of its step', () => {
    for (const status of ['created', 'pending', 'expired', 'something-new'])
      expect(synthesiseEvent(snapshot({ status }))).toBeNull();
    expect(synthesiseEvent(snapshot({ decisionedAt: null }))).toBeNull();
    expect(synthesiseEvent(snapshot({ decisionedAt: 'yesterday' }))).toBeNull();
  });
});

const kycTables = localKycTables();

/** The store, Persona and the bus wired as in the stack: published events go to the webhook's processor. */
async function setup(inquiries: Record<string, InquirySnapshot | Error>) {
  const store = await kycTables.newStore();
  const bus: DomainEvent[] = [];
  const statusChanges: DomainEvent[] = [];
  const processor = processPersonaEvent({
    store,
    events: { publish: async (events) => void statusChanges.push(...events) },
    clock,
  });
  const reads: string[] = [];
  const reconcile = reconcileInquiries({
    finder: store,
    inquiries: {
      getInquirySnapshot: async (id) => {
        reads.push(id);
        const answer = inquiries[id];
        if (answer === undefined || answer instanceof Error) throw answer ?? new Error('404');
        return answer;
      },
    },
    events: {
      publish: async (events) => {
        bus.push(...events);
        for (const event of events)
          if (event.detailType === 'PersonaEventReceived')
            await processor(personaEventFromReceived(event.detail));
      },
    },
    clock,
  });
  return { store, bus, statusChanges, reads, reconcile, processor };
}

const old = '2026-11-21T06:00:00.000Z';

describe('reconcileInquiries', () => {
  it('brings a user whose webhooks were lost to Persona’s status once, however often it runs', async () => {
    const { store, statusChanges, reconcile } = await setup({ inq_1: snapshot() });
    await store.seed({ userId: 'auth0|u1', inquiryId: 'inq_1', updatedAt: old });
    for (let run = 0; run < 3; run++) await reconcile({ minAgeMinutes: 120, maxInquiries: 10 });
    expect(store.states.get('auth0|u1')?.status).toBe('approved');
    expect(statusChanges.map((event) => event.detail)).toEqual([
      expect.objectContaining({ userId: 'auth0|u1', status: 'approved', previousStatus: 'not_started' }),
    ]);
  });

  it('two runs at once publish the same event id, applied once', async () => {
    const { store, bus, statusChanges, reconcile } = await setup({ inq_1: snapshot() });
    await store.seed({ userId: 'auth0|u1', inquiryId: 'inq_1', updatedAt: old });
    await Promise.all([
      reconcile({ minAgeMinutes: 120, maxInquiries: 10 }),
      reconcile({ minAgeMinutes: 120, maxInquiries: 10 }),
    ]);
    expect(new Set(bus.map((event) => (event.detail as { eventId: string }).eventId)).size).toBe(1);
    expect(statusChanges).toHaveLength(1);
    expect(store.history).toHaveLength(1);
  });

  it('leaves alone users changed within the age, and a pending user awaiting review at Persona', async () => {
    const { store, bus, reconcile } = await setup({
      inq_new: snapshot({ inquiryId: 'inq_new', referenceId: 'auth0|new' }),
      inq_review: snapshot({
        inquiryId: 'inq_review',
        referenceId: 'auth0|review',
        status: 'needs_review',
        decisionedAt: null,
        markedForReviewAt: '2026-11-21T05:00:00Z',
      }),
    });
    await store.seed({ userId: 'auth0|new', inquiryId: 'inq_new', updatedAt: '2026-11-21T11:00:00.000Z' });
    await store.seed({ userId: 'auth0|review', inquiryId: 'inq_review', status: 'pending', updatedAt: old });
    const result = await reconcile({ minAgeMinutes: 120, maxInquiries: 10 });
    expect(result).toMatchObject({ checked: 1, published: 0, unchanged: 1 });
    expect(bus).toEqual([]);
    expect(store.states.get('auth0|new')?.status).toBe('not_started');
    expect(store.states.get('auth0|review')?.status).toBe('pending');
  });

  it('a late real webhook for the same decision changes nothing; an older one cannot undo it', async () => {
    const { store, statusChanges, reconcile, processor } = await setup({ inq_1: snapshot() });
    await store.seed({ userId: 'auth0|u1', inquiryId: 'inq_1', updatedAt: old });
    await reconcile({ minAgeMinutes: 120, maxInquiries: 10 });
    const webhook = (name: string, at: string) =>
      processor({
        eventId: `evt_${name}`,
        name,
        createdAt: normaliseInstant(at),
        inquiry: { id: 'inq_1', referenceId: 'auth0|u1' },
      });
    expect((await webhook('inquiry.completed', '2026-11-21T06:00:01Z')).outcome).toBe('stale');
    expect(await webhook('inquiry.approved', '2026-11-21T06:00:03Z')).toMatchObject({ changed: false });
    expect(store.states.get('auth0|u1')?.status).toBe('approved');
    expect(statusChanges).toHaveLength(1);
  });

  it('a decision whose webhook Persona is still retrying wins over the older step the job applied', async () => {
    // The job read the inquiry while it awaited review; Persona approved it at 06:00 and its
    // webhook arrives after the job's event. The job's event carries Persona's time of the review
    // (05:00), not the run's (12:00), so the approval is newer and applies.
    const { store, statusChanges, reconcile, processor } = await setup({
      inq_1: snapshot({
        status: 'needs_review',
        decisionedAt: null,
        markedForReviewAt: '2026-11-21T05:00:00Z',
      }),
    });
    await store.seed({ userId: 'auth0|u1', inquiryId: 'inq_1', updatedAt: old });
    await reconcile({ minAgeMinutes: 120, maxInquiries: 10 });
    expect(store.states.get('auth0|u1')?.status).toBe('pending');
    await processor({
      eventId: 'evt_approved',
      name: 'inquiry.approved',
      createdAt: normaliseInstant('2026-11-21T06:00:00Z'),
      inquiry: { id: 'inq_1', referenceId: 'auth0|u1' },
    });
    expect(store.states.get('auth0|u1')?.status).toBe('approved');
    expect(statusChanges.map((event) => (event.detail as { status: string }).status)).toEqual([
      'pending',
      'approved',
    ]);
  });

  it('goes through the webhook’s checks: an inquiry owned by another user changes nothing', async () => {
    const { store, statusChanges, reconcile } = await setup({
      inq_1: snapshot({ referenceId: 'auth0|attacker' }),
    });
    await store.seed({ userId: 'auth0|u1', inquiryId: 'inq_1', updatedAt: old });
    await reconcile({ minAgeMinutes: 120, maxInquiries: 10 });
    expect(store.states.get('auth0|u1')?.status).toBe('not_started');
    expect(statusChanges).toEqual([]);
  });

  it('reads at most the cap, and stops after a few failures in a row (the next run retries)', async () => {
    const answers: Record<string, InquirySnapshot | Error> = {};
    const { store, reads, reconcile } = await setup(answers);
    for (let i = 0; i < 10; i++) {
      answers[`inq_${i}`] = new Error('Persona 503');
      await store.seed({ userId: `auth0|u${i}`, inquiryId: `inq_${i}`, updatedAt: old });
    }
    const result = await reconcile({ minAgeMinutes: 120, maxInquiries: 8 });
    expect(reads).toHaveLength(maxConsecutiveFailures);
    expect(result).toMatchObject({ failed: maxConsecutiveFailures, skipped: 8 - maxConsecutiveFailures });
  });
});
