import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { KycStatus } from '#contracts/kyc.ts';
import { normaliseInstant, type PersonaEvent } from '#lambdas/domain/kyc/persona-event.ts';
import { processPersonaEvent } from '#lambdas/domain/kyc/process-persona-event.ts';
import { mappedEventNames, statusForEvent } from '#lambdas/domain/kyc/status-mapping.ts';
import { approvedByPersona, localKycTables } from '#tests/helpers/kyc-table.ts';
import { RecordingPublisher } from '#tests/lambdas/domain/fakes.ts';

const userId = 'auth0|user-1';
const inquiryId = 'inq_1';
const clock = { now: () => new Date('2026-11-21T07:00:00.000Z') };

const kycTables = localKycTables();

async function setup() {
  const store = await kycTables.newStore();
  await store.seed({ userId, inquiryId });
  const events = new RecordingPublisher();
  return { store, events, process: processPersonaEvent({ store, events, clock }) };
}

const personaEvent = (name: string, second: number, overrides: Partial<PersonaEvent> = {}): PersonaEvent => ({
  eventId: `evt_${name}_${second}`,
  name,
  createdAt: normaliseInstant(new Date(Date.UTC(2026, 10, 21, 6, 0, second)).toISOString()),
  inquiry: { id: inquiryId, referenceId: userId },
  ...overrides,
});

describe('statusForEvent', () => {
  it.each([
    ['inquiry.approved', 'approved'],
    ['inquiry.declined', 'rejected'],
    ['inquiry.failed', 'rejected'],
    ['inquiry.completed', 'pending'],
    ['inquiry.marked-for-review', 'pending'],
    ['inquiry.created', undefined],
    ['inquiry.started', undefined],
    ['inquiry.redacted', undefined],
    ['toString', undefined],
  ])('maps %s to %s', (name, status) => {
    expect(statusForEvent(name)).toBe(status);
  });
});

describe('processPersonaEvent', () => {
  it('applies inquiry.approved: status, history, outbox marked published, KycStatusChanged on the bus', async () => {
    const { store, events, process } = await setup();
    const result = await process(personaEvent('inquiry.approved', 1));
    expect(result).toEqual({
      outcome: 'applied',
      changed: true,
      status: 'approved',
      publish: { published: true },
    });
    expect(store.states.get(userId)).toMatchObject({
      status: 'approved',
      decidedBy: 'persona',
      lastEventId: 'evt_inquiry.approved_1',
    });
    expect(store.history).toEqual([
      expect.objectContaining({ from: 'not_started', to: 'approved', by: 'persona' }),
    ]);
    expect(events.published).toEqual([approvedByPersona(store, { userId, inquiryId, at: clock.now() })]);
    expect([...store.outbox.values()].every((item) => item.publishedAt !== null)).toBe(true);
  });

  it('acknowledges and ignores events it does not map, writing nothing', async () => {
    const { store, process } = await setup();
    for (const name of ['inquiry.created', 'inquiry.started', 'inquiry.redacted', 'account.created']) {
      expect(await process(personaEvent(name, 1))).toMatchObject({
        outcome: 'ignored',
        reason: 'unmapped_event',
      });
    }
    expect(store.states.get(userId)?.version).toBe(1);
    expect(store.events.size).toBe(0);
  });

  it('ignores, as a security event, an inquiry this backend did not create', async () => {
    const { store, process } = await setup();
    const result = await process(
      personaEvent('inquiry.approved', 1, { inquiry: { id: 'inq_foreign', referenceId: userId } }),
    );
    expect(result).toEqual({ outcome: 'ignored', reason: 'unknown_inquiry', security: true });
    expect(store.states.get(userId)?.status).toBe('not_started');
  });

  it('ignores, as a security event, a reference id that does not match the inquiry owner', async () => {
    const { store, process } = await setup();
    const result = await process(
      personaEvent('inquiry.approved', 1, { inquiry: { id: inquiryId, referenceId: 'auth0|attacker' } }),
    );
    expect(result).toEqual({ outcome: 'ignored', reason: 'reference_mismatch', security: true });
    expect(store.states.get(userId)?.status).toBe('not_started');
  });

  it('ignores, as a security event, a reference id naming another user whose state names another inquiry', async () => {
    const { store, process } = await setup();
    await store.seed({ userId: 'auth0|other', inquiryId: 'inq_other' });
    const result = await process(
      personaEvent('inquiry.approved', 1, { inquiry: { id: inquiryId, referenceId: 'auth0|other' } }),
    );
    expect(result).toEqual({ outcome: 'ignored', reason: 'reference_mismatch', security: true });
    expect(store.states.get(userId)?.status).toBe('not_started');
    expect(store.states.get('auth0|other')?.status).toBe('not_started');
  });

  it('ignores, as a security event, an event without a reference id', async () => {
    const { store, process } = await setup();
    const result = await process(
      personaEvent('inquiry.approved', 1, { inquiry: { id: inquiryId, referenceId: null } }),
    );
    expect(result).toEqual({ outcome: 'ignored', reason: 'reference_mismatch', security: true });
    expect(store.states.get(userId)?.status).toBe('not_started');
  });

  it.each([
    ['over 2 KB, which DynamoDB refuses as a key', 'x'.repeat(2100)],
    ['one character over the 256 bound', `auth0|${'a'.repeat(251)}`],
    ['empty', ''],
  ])(
    'ignores, as a reference mismatch, a reference id %s, before reading anything (ADR 0071)',
    async (_name, referenceId) => {
      const { store, events, process } = await setup();
      const reads = vi.spyOn(store, 'readForEvent');
      const owners = vi.spyOn(store, 'findInquiryOwner');
      const result = await process(
        personaEvent('inquiry.approved', 1, { inquiry: { id: inquiryId, referenceId } }),
      );
      expect(result).toEqual({ outcome: 'ignored', reason: 'reference_mismatch', security: true });
      expect(reads).not.toHaveBeenCalled();
      expect(owners).not.toHaveBeenCalled();
      expect(store.states.get(userId)?.status).toBe('not_started');
      expect(store.events.size).toBe(0);
      expect(events.published).toEqual([]);
    },
  );

  it('still reads a reference id of exactly 256 characters, and refuses it as not the owner', async () => {
    const { store, process } = await setup();
    const referenceId = `auth0|${'a'.repeat(250)}`;
    expect(referenceId).toHaveLength(256);
    const result = await process(
      personaEvent('inquiry.approved', 1, { inquiry: { id: inquiryId, referenceId } }),
    );
    expect(result).toEqual({ outcome: 'ignored', reason: 'reference_mismatch', security: true });
    expect(store.states.get(userId)?.status).toBe('not_started');
  });

  it("reads once, state and event marker together, when the user's state names the inquiry", async () => {
    const { store, process } = await setup();
    const mapping = vi.spyOn(store, 'findInquiryOwner');
    expect(await process(personaEvent('inquiry.approved', 1))).toMatchObject({ outcome: 'applied' });
    expect(store.eventReads).toEqual([userId]);
    expect(mapping).not.toHaveBeenCalled();
  });

  it("asks the inquiry's mapping when the state is being erased, and ignores the event once that is gone", async () => {
    const { store, process } = await setup();
    await store.beingErased(userId);
    await store.unmapInquiry(inquiryId); // the erasure's TTL removed the mapping first
    const result = await process(personaEvent('inquiry.approved', 1));
    expect(result).toEqual({ outcome: 'ignored', reason: 'unknown_inquiry', security: true });
    expect(store.states.get(userId)?.status).toBe('not_started');
  });

  it('ignores an event of an erased person whose inquiry mapping still stands: no status, no history', async () => {
    const { store, events, process } = await setup();
    await store.beingErased(userId);
    const result = await process(personaEvent('inquiry.approved', 1));
    expect(result).toEqual({ outcome: 'ignored', reason: 'erased', security: false });
    expect(store.states.get(userId)).toMatchObject({ status: 'not_started', erased: true });
    expect(store.history).toEqual([]);
    expect(events.published).toEqual([]);
  });

  it('ignores events of an inquiry the user has replaced with a newer one', async () => {
    const { store, process } = await setup();
    await store.mapInquiry('inq_old', userId);
    const result = await process(
      personaEvent('inquiry.approved', 1, { inquiry: { id: 'inq_old', referenceId: userId } }),
    );
    expect(result).toMatchObject({ outcome: 'ignored', reason: 'superseded_inquiry' });
    expect(store.states.get(userId)?.status).toBe('not_started');
  });

  it('processes the same event id once, however often it arrives', async () => {
    const { store, events, process } = await setup();
    const event = personaEvent('inquiry.approved', 1);
    const results = await Promise.all(Array.from({ length: 10 }, () => process(event)));
    expect(results.filter((r) => r.outcome === 'applied')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'duplicate')).toHaveLength(9);
    expect(store.history).toHaveLength(1);
    expect(events.published).toHaveLength(1);
  });

  it('calls an event the state already names as its last a duplicate, even before its marker is seen', async () => {
    // What a delivery reads while the transaction that applies the same event commits: DynamoDB's
    // BatchGetItem may return the new state without the marker. It must not be called stale.
    const store = await kycTables.newStore();
    const event = personaEvent('inquiry.approved', 1);
    await store.seed({
      userId,
      inquiryId,
      status: 'approved',
      lastEventId: event.eventId,
      lastEventAt: event.createdAt,
      version: 2,
    });
    const events = new RecordingPublisher();
    expect(await processPersonaEvent({ store, events, clock })(event)).toEqual({ outcome: 'duplicate' });
    expect(store.history).toHaveLength(0);
    expect(events.published).toHaveLength(0);
  });

  it('does not let an older event change the status set by a newer one', async () => {
    const { store, process } = await setup();
    await process(personaEvent('inquiry.approved', 5));
    expect(await process(personaEvent('inquiry.completed', 3))).toEqual({ outcome: 'stale' });
    expect(store.states.get(userId)?.status).toBe('approved');
  });

  it("stores the failed checks an event's verifications listed, replaced by a newer event's, never by a stale one", async () => {
    const { store, process } = await setup();
    const selfie = [{ type: 'selfie', name: 'selfie_id_comparison' }];
    await process(personaEvent('inquiry.completed', 3, { flaggedChecks: selfie }));
    expect(store.states.get(userId)?.flaggedChecks).toEqual(selfie);

    // An older event (a delivery that arrived late) changes nothing, its checks included.
    const older = [{ type: 'government-id', name: 'id_tamper_detection' }];
    expect(await process(personaEvent('inquiry.failed', 2, { flaggedChecks: older }))).toEqual({
      outcome: 'stale',
    });
    expect(store.states.get(userId)?.flaggedChecks).toEqual(selfie);

    // A newer event without verifications (the reconciliation's, say) tells nothing: they stay.
    await process(personaEvent('inquiry.marked-for-review', 4));
    expect(store.states.get(userId)).toMatchObject({ lastEventId: 'evt_inquiry.marked-for-review_4' });
    expect(store.states.get(userId)?.flaggedChecks).toEqual(selfie);

    // A newer event's verifications replace them; an event whose verifications all passed clears them.
    const expired = [
      { type: 'government-id', name: 'id_expired' },
      { type: 'selfie', name: 'selfie_liveness_detection' },
    ];
    await process(personaEvent('inquiry.declined', 5, { flaggedChecks: expired }));
    expect(store.states.get(userId)).toMatchObject({ status: 'rejected', flaggedChecks: expired });
    await process(personaEvent('inquiry.approved', 6, { flaggedChecks: [] }));
    expect(store.states.get(userId)?.status).toBe('approved');
    expect(store.states.get(userId)?.flaggedChecks).toBeUndefined();
  });

  it("stores the failed checks of Persona's event that came after a reviewer's decision, which stands", async () => {
    const store = await kycTables.newStore();
    await store.seed({ userId, inquiryId, status: 'approved', decidedBy: 'admin', version: 3 });
    const events = new RecordingPublisher();
    const checks = [{ type: 'government-id', name: 'id_fabrication_detection' }];
    const result = await processPersonaEvent({ store, events, clock })(
      personaEvent('inquiry.declined', 9, { flaggedChecks: checks }),
    );
    expect(result).toMatchObject({ outcome: 'held', status: 'approved' });
    expect(store.states.get(userId)).toMatchObject({ status: 'approved', flaggedChecks: checks });
  });

  it('applies a decision that shares its second with the pending event, in either order', async () => {
    for (const order of [
      ['inquiry.completed', 'inquiry.approved'],
      ['inquiry.approved', 'inquiry.completed'],
    ]) {
      const { store, events, process } = await setup();
      for (const name of order) await process(personaEvent(name, 7));
      expect(store.states.get(userId)?.status, order.join(' then ')).toBe('approved');
      expect(events.published.at(-1)).toMatchObject({ detail: { status: 'approved' } });
    }
  });

  it('lets a rejection beat an approval of the same second (fail closed), in either order', async () => {
    for (const order of [
      ['inquiry.approved', 'inquiry.failed'],
      ['inquiry.failed', 'inquiry.approved'],
    ]) {
      const { store, process } = await setup();
      for (const name of order) await process(personaEvent(name, 7));
      expect(store.states.get(userId)?.status, order.join(' then ')).toBe('rejected');
    }
  });

  it('treats an event of the same second and status as a no-op', async () => {
    const { store, events, process } = await setup();
    await process(personaEvent('inquiry.completed', 7));
    expect(await process(personaEvent('inquiry.marked-for-review', 7))).toEqual({ outcome: 'stale' });
    expect(store.states.get(userId)?.lastEventId).toBe('evt_inquiry.completed_7');
    expect(events.published).toHaveLength(1);
  });

  it('records an event that keeps the status without history or a KycStatusChanged', async () => {
    const { store, events, process } = await setup();
    await process(personaEvent('inquiry.completed', 1));
    const result = await process(personaEvent('inquiry.marked-for-review', 2));
    expect(result).toMatchObject({ outcome: 'applied', changed: false, status: 'pending' });
    expect(store.history).toHaveLength(1);
    expect(events.published).toHaveLength(1);
    expect(store.states.get(userId)?.lastEventId).toBe('evt_inquiry.marked-for-review_2');
  });

  it('keeps the change when publishing fails, and leaves the outbox item for the relay', async () => {
    const { store, events, process } = await setup();
    events.failNext = 1;
    const result = await process(personaEvent('inquiry.declined', 1));
    expect(result).toMatchObject({ outcome: 'applied', status: 'rejected', publish: { published: false } });
    expect(store.states.get(userId)?.status).toBe('rejected');
    expect([...store.outbox.values()]).toEqual([expect.objectContaining({ publishedAt: null })]);
  });

  // Times drawn from a small range, so that many sequences hold events of the same time (ties).
  const eventSequence = fc
    .array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 8 })
    .chain((seconds) =>
      fc.tuple(
        fc.constant(seconds),
        fc.array(fc.constantFrom(...mappedEventNames), {
          minLength: seconds.length,
          maxLength: seconds.length,
        }),
      ),
    )
    .map(([seconds, names]) =>
      seconds.map((second, index) => ({
        eventId: `evt_${index}_${second}`,
        name: names[index] ?? 'inquiry.completed',
        createdAt: `2026-11-21T06:00:00.${String(second).padStart(6, '0')}Z`,
        inquiry: { id: inquiryId, referenceId: userId },
      })),
    );

  /** The status of the newest event; among the newest, the highest-ranked status (written out here, not imported). */
  const rank: Record<KycStatus, number> = { not_started: 0, pending: 1, approved: 2, rejected: 3 };
  const newestStatus = (sequence: PersonaEvent[]): KycStatus => {
    const latest = [...sequence]
      .map((e) => e.createdAt)
      .sort()
      .at(-1);
    const statuses = sequence
      .filter((e) => e.createdAt === latest)
      .map((e) => statusForEvent(e.name) ?? 'not_started');
    return statuses.sort((a, b) => rank[b] - rank[a])[0] ?? 'not_started';
  };

  it('ends in the newest event status whatever the order and duplication (one at a time)', async () => {
    await fc.assert(
      fc.asyncProperty(
        eventSequence.chain((sequence) =>
          fc.tuple(
            fc.constant(sequence),
            fc.shuffledSubarray([...sequence, ...sequence, ...sequence], { minLength: 3 * sequence.length }),
          ),
        ),
        async ([sequence, deliveries]) => {
          const { store, process } = await setup();
          for (const delivery of deliveries) await process(delivery);
          expect(store.states.get(userId)?.status).toBe(newestStatus(sequence));
          expect(store.states.get(userId)?.lastEventAt).toBe(
            [...sequence]
              .map((e) => e.createdAt)
              .sort()
              .at(-1),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('ends in the newest event status when shuffled duplicates arrive concurrently', async () => {
    await fc.assert(
      fc.asyncProperty(
        eventSequence.chain((sequence) =>
          fc.tuple(
            fc.constant(sequence),
            fc.shuffledSubarray([...sequence, ...sequence], { minLength: sequence.length }),
          ),
        ),
        async ([sequence, extra]) => {
          const { store, events, process } = await setup();
          // Every event arrives at least once (Persona retries until acknowledged).
          const deliveries = [...extra, ...sequence];
          await Promise.all(deliveries.map((delivery) => process(delivery)));
          expect(store.states.get(userId)?.status).toBe(newestStatus(sequence));
          // Each applied status change is recorded and published exactly once.
          expect(events.published).toHaveLength(store.history.length);
          expect(new Set(store.history.map((h) => h.eventId)).size).toBe(store.history.length);
        },
      ),
      { numRuns: 100 },
    );
  });
});
