import { describe, expect, it } from 'vitest';
import { verificationDecisionRequest } from '#contracts/admin-verifications.ts';
import type { DomainEvent } from '#contracts/events.ts';
import { decideVerification } from '#lambdas/domain/kyc/decide-verification.ts';
import { VerificationNotFoundError } from '#lambdas/domain/kyc/errors.ts';
import { listVerifications } from '#lambdas/domain/kyc/list-verifications.ts';
import { normaliseInstant, processPersonaEvent } from '#lambdas/domain/kyc/process-persona-event.ts';
import { FakeKycStore } from './fake-kyc-store.ts';

const clock = { now: () => new Date('2026-11-21T07:00:00.000Z') };

function setup() {
  const store = new FakeKycStore();
  const published: DomainEvent[] = [];
  const events = { publish: async (batch: DomainEvent[]) => void published.push(...batch) };
  return { store, published, decide: decideVerification({ store, events, clock }), events };
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

describe('listVerifications', () => {
  it('lists one status, or every status newest first for all', async () => {
    const { store } = setup();
    store.seed({ userId: 'a', status: 'pending', updatedAt: '2026-01-02T00:00:00.000Z', inquiryId: 'inq_a' });
    store.seed({
      userId: 'b',
      status: 'approved',
      updatedAt: '2026-01-03T00:00:00.000Z',
      inquiryId: 'inq_b',
      decidedBy: 'persona',
    });
    store.seed({ userId: 'c', status: 'pending', updatedAt: '2026-01-04T00:00:00.000Z', inquiryId: 'inq_c' });
    const list = listVerifications({ store });
    expect((await list('pending')).map((item) => item.userId).sort()).toEqual(['a', 'c']);
    expect((await list('all')).map((item) => item.userId)).toEqual(['c', 'b', 'a']);
    expect((await list('approved'))[0]).toEqual({
      userId: 'b',
      status: 'approved',
      inquiryId: 'inq_b',
      updatedAt: '2026-01-03T00:00:00.000Z',
      decidedBy: 'persona',
    });
  });
});
