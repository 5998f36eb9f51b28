import { describe, expect, it } from 'vitest';
import {
  decodeVerificationCursor,
  encodeVerificationCursor,
  listVerificationsQuery,
  verificationDecisionRequest,
  verificationPageSize,
} from '#contracts/admin-verifications.ts';
import { decisionReasons, maxVerificationAttempts, reviewerReasonCodes } from '#contracts/kyc-reasons.ts';
import { allowNewAttempt, decideVerification } from '#lambdas/domain/kyc/decide-verification.ts';
import {
  AttemptsExhaustedError,
  OwnVerificationError,
  SecondReviewerRequiredError,
  VerificationNotFoundError,
  VerificationNotRejectedError,
  VerificationNotSubmittedError,
} from '#lambdas/domain/kyc/errors.ts';
import { listVerifications } from '#lambdas/domain/kyc/list-verifications.ts';
import { normaliseInstant } from '#lambdas/domain/kyc/persona-event.ts';
import type { RegistrationLookup } from '#lambdas/domain/kyc/ports.ts';
import { processPersonaEvent } from '#lambdas/domain/kyc/process-persona-event.ts';
import type { RegistrationRecord } from '#lambdas/domain/registration/ports.ts';
import { localKycTables } from '#tests/helpers/kyc-table.ts';
import { RecordingPublisher } from '#tests/lambdas/domain/fakes.ts';

const clock = { now: () => new Date('2026-11-21T07:00:00.000Z') };

const kycTables = localKycTables();

async function setup() {
  const store = await kycTables.newStore();
  const events = new RecordingPublisher();
  return {
    store,
    published: events.published,
    decide: decideVerification({ store, events, clock, audit: store.audit }),
    events,
  };
}

describe('decideVerification', () => {
  it('writes the admin decision with the admin id and reason in history, and publishes it', async () => {
    const { store, published, decide } = await setup();
    await store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1' });
    const result = await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'approved', reasonCode: 'identity_confirmed', reason: 'Documents checked' },
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
    const { decide } = await setup();
    await expect(
      decide({
        adminId: 'admin-1',
        userId: 'nobody',
        decision: { decision: 'rejected', reasonCode: 'document_unreadable', reason: 'No' },
      }),
    ).rejects.toBeInstanceOf(VerificationNotFoundError);
  });

  it('is not undone by a Persona event created before the decision', async () => {
    const { store, decide, events } = await setup();
    await store.seed({
      userId: 'u1',
      status: 'pending',
      inquiryId: 'inq_1',
      lastEventAt: normaliseInstant('2026-11-21T06:00:00Z'),
    });
    await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'rejected', reasonCode: 'document_unreadable', reason: 'Forged ID' },
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

describe("an admin's decision against Persona's later ones", () => {
  it('stands against a later Persona approval: recorded in the history beside it, nothing published; another admin may reverse it', async () => {
    const { store, decide, events, published } = await setup();
    await store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1' });
    await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'rejected', reasonCode: 'document_unreadable', reason: 'Forged ID' },
    });
    const approval = await processPersonaEvent({
      store,
      events,
      clock: { now: () => new Date('2026-11-21T08:00:00.000Z') },
    })({
      eventId: 'evt_later',
      name: 'inquiry.approved',
      createdAt: normaliseInstant('2026-11-21T07:30:00Z'),
      inquiry: { id: 'inq_1', referenceId: 'u1' },
    });
    expect(approval).toEqual({ outcome: 'held', status: 'rejected', personaStatus: 'approved' });
    expect(store.states.get('u1')).toMatchObject({
      status: 'rejected',
      decidedBy: 'admin',
      reasonCode: 'document_unreadable',
    });
    expect(store.history).toEqual([
      expect.objectContaining({ from: 'pending', to: 'rejected', by: 'admin', action: 'status_changed' }),
      expect.objectContaining({
        from: 'rejected',
        to: 'approved',
        by: 'persona',
        reason: 'inquiry.approved',
        reasonCode: 'checks_passed',
        action: 'decision_held',
      }),
    ]);
    // Only the admin's decision reached the bus (Auth0, the email, the status screen).
    expect(published.map((event) => event.detail)).toEqual([
      expect.objectContaining({ status: 'rejected', decidedBy: 'admin' }),
    ]);
    // The same delivery again is a duplicate; the listing shows both entries.
    expect(
      await processPersonaEvent({ store, events, clock })({
        eventId: 'evt_later',
        name: 'inquiry.approved',
        createdAt: normaliseInstant('2026-11-21T07:30:00Z'),
        inquiry: { id: 'inq_1', referenceId: 'u1' },
      }),
    ).toEqual({ outcome: 'duplicate' });
    // Another admin reverses it: an admin's decision changes an admin's decision.
    await decide({
      adminId: 'admin-2',
      userId: 'u1',
      decision: { decision: 'approved', reasonCode: 'identity_confirmed' },
    });
    expect(store.states.get('u1')).toMatchObject({ status: 'approved', decidedBy: 'admin' });
  });
});

describe('who may decide what', () => {
  const approve = { decision: 'approved', reasonCode: 'identity_confirmed' } as const;

  it('refuses to decide a verification that was never submitted, and writes nothing', async () => {
    const { store, decide, published } = await setup();
    // Opened the widget and cancelled: an inquiry exists, nothing was submitted.
    await store.seed({ userId: 'u1', status: 'not_started', inquiryId: 'inq_1' });
    await store.seed({ userId: 'u2', status: 'not_started' });
    for (const userId of ['u1', 'u2']) {
      await expect(decide({ adminId: 'admin-1', userId, decision: approve })).rejects.toBeInstanceOf(
        VerificationNotSubmittedError,
      );
      await expect(
        decide({
          adminId: 'admin-1',
          userId,
          decision: { decision: 'rejected', reasonCode: 'document_expired' },
        }),
      ).rejects.toBeInstanceOf(VerificationNotSubmittedError);
    }
    expect(store.states.get('u1')).toMatchObject({ status: 'not_started', version: 1 });
    expect(store.history).toEqual([]);
    expect(published).toEqual([]);
  });

  it('refuses an admin deciding on their own verification before reading anything', async () => {
    const { store, decide } = await setup();
    await store.seed({ userId: 'admin-1', status: 'pending', inquiryId: 'inq_1' });
    await expect(decide({ adminId: 'admin-1', userId: 'admin-1', decision: approve })).rejects.toBeInstanceOf(
      OwnVerificationError,
    );
    expect(store.states.get('admin-1')?.status).toBe('pending');
  });

  it('stores the reason code with the decision and publishes it for the email', async () => {
    const { store, decide, published } = await setup();
    await store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1' });
    await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'rejected', reasonCode: 'document_unreadable', reason: 'Glare over the photo' },
    });
    expect(store.states.get('u1')).toMatchObject({ status: 'rejected', reasonCode: 'document_unreadable' });
    expect(store.history.at(-1)).toMatchObject({
      reason: 'Glare over the photo',
      reasonCode: 'document_unreadable',
      action: 'status_changed',
    });
    expect(published[0]?.detail).toMatchObject({ status: 'rejected', reasonCode: 'document_unreadable' });
  });
});

describe('the admin audit trail of decisions (ADR 0078)', () => {
  it("records a decision and a reversal with who, what, on whom and why, in the decision's own transaction", async () => {
    const { store, decide } = await setup();
    await store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1', attempt: 1 });
    await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'approved', reasonCode: 'identity_confirmed', reason: 'Documents checked' },
      requestId: 'api-req-1',
    });
    await decide({
      adminId: 'admin-2',
      userId: 'u1',
      decision: { decision: 'rejected', reasonCode: 'document_unreadable', reason: 'Second look: glare' },
    });
    const entries = await store.audit.listFrom(1);
    expect(entries).toEqual([
      expect.objectContaining({
        sequence: 1,
        recordedAt: clock.now().toISOString(),
        actorType: 'admin',
        actorId: 'admin-1',
        action: 'verification_decided',
        targetType: 'verification',
        targetId: 'u1',
        reasonCode: 'identity_confirmed',
        reason: 'Documents checked',
        details: { from: 'pending', to: 'approved', inquiryId: 'inq_1', attempt: 1 },
        requestId: 'api-req-1',
        previousHash: null,
      }),
      expect.objectContaining({
        sequence: 2,
        actorId: 'admin-2',
        action: 'verification_reversed',
        reasonCode: 'document_unreadable',
        details: { from: 'approved', to: 'rejected', inquiryId: 'inq_1', attempt: 1 },
        requestId: null,
        previousHash: entries[0]?.hash,
      }),
    ]);
  });

  it('records nothing for a decision that changes nothing, and nothing for a decision refused', async () => {
    const { store, decide } = await setup();
    await store.seed({ userId: 'u1', status: 'approved', decidedBy: 'admin', inquiryId: 'inq_1' });
    await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'approved', reasonCode: 'identity_confirmed' },
    });
    await store.seed({ userId: 'u2', status: 'not_started', inquiryId: null });
    await expect(
      decide({
        adminId: 'admin-1',
        userId: 'u2',
        decision: { decision: 'approved', reasonCode: 'identity_confirmed' },
      }),
    ).rejects.toBeInstanceOf(VerificationNotSubmittedError);
    expect(await store.audit.listFrom(1)).toEqual([]);
  });

  it('chains onto an entry another command appended meanwhile, and writes the decision once', async () => {
    const { store } = await setup();
    await store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1' });
    // The head read in the first round is stale by the time the transaction runs.
    let raced = false;
    const racingHead = {
      head: async () => {
        const head = await store.audit.head();
        if (!raced) {
          raced = true;
          await store.audit.append({
            actorType: 'operator',
            actorId: 'arn:aws:iam::1:user/op',
            action: 'erasure_run',
            targetType: 'deletion_request',
            targetId: 'req-9',
            reasonCode: null,
            reason: 'confirmed',
            details: {},
            requestId: null,
          });
        }
        return head;
      },
    };
    const decide = decideVerification({ store, events: new RecordingPublisher(), clock, audit: racingHead });
    await decide({
      adminId: 'admin-1',
      userId: 'u1',
      decision: { decision: 'approved', reasonCode: 'identity_confirmed' },
    });
    const entries = await store.audit.listFrom(1);
    expect(entries.map((entry) => [entry.sequence, entry.action])).toEqual([
      [1, 'erasure_run'],
      [2, 'verification_decided'],
    ]);
    expect(store.history.filter((entry) => entry.action === 'status_changed')).toHaveLength(1);
  });

  it('records a new attempt allowed, with the reviewer and the reason', async () => {
    const { store } = await setup();
    await store.seed({
      userId: 'u1',
      status: 'rejected',
      decidedBy: 'admin',
      inquiryId: 'inq_1',
      attempt: 1,
    });
    await allowNewAttempt({ store, clock, audit: store.audit })({
      adminId: 'admin-1',
      userId: 'u1',
      reason: 'Sent a readable scan',
    });
    expect(await store.audit.listFrom(1)).toEqual([
      expect.objectContaining({
        action: 'new_attempt_allowed',
        actorId: 'admin-1',
        targetId: 'u1',
        reason: 'Sent a readable scan',
        details: { attempt: 1, inquiryId: 'inq_1' },
      }),
    ]);
  });
});

describe('four-eyes decisions (ADR 0080)', () => {
  const registrationsOf = (organizationType: RegistrationRecord['organizationType']): RegistrationLookup => ({
    getRegistrations: async (userIds) =>
      new Map(userIds.map((userId) => [userId, { userId, organizationType } as RegistrationRecord])),
  });
  async function fourEyesSetup(organizationType: RegistrationRecord['organizationType'], on = true) {
    const store = await kycTables.newStore();
    const events = new RecordingPublisher();
    const decide = decideVerification({
      store,
      events,
      clock,
      audit: store.audit,
      fourEyes: () => on,
      registrations: registrationsOf(organizationType),
    });
    return { store, published: events.published, decide };
  }
  const approve = {
    decision: 'approved',
    reasonCode: 'identity_confirmed',
    reason: 'Passport matches',
  } as const;

  it('holds an approval of a defense organization until a second admin confirms it; the same admin twice is refused', async () => {
    const { store, published, decide } = await fourEyesSetup('defense');
    await store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1', attempt: 1 });

    expect(await decide({ adminId: 'admin-1', userId: 'u1', decision: approve })).toMatchObject({
      outcome: 'proposed',
      status: 'pending',
      changed: false,
    });
    expect(store.states.get('u1')).toMatchObject({
      status: 'pending',
      proposal: {
        decision: 'approved',
        reasonCode: 'identity_confirmed',
        adminId: 'admin-1',
        fromStatus: 'pending',
      },
    });
    expect(published).toEqual([]);
    expect(store.history.at(-1)).toMatchObject({
      action: 'decision_proposed',
      from: 'pending',
      to: 'approved',
    });

    await expect(decide({ adminId: 'admin-1', userId: 'u1', decision: approve })).rejects.toBeInstanceOf(
      SecondReviewerRequiredError,
    );
    expect(store.states.get('u1')?.status).toBe('pending');

    expect(await decide({ adminId: 'admin-2', userId: 'u1', decision: approve })).toMatchObject({
      outcome: 'decided',
      status: 'approved',
      changed: true,
    });
    expect(store.states.get('u1')).toMatchObject({ status: 'approved', proposal: null });
    expect(published).toHaveLength(1);
    const trail = await store.audit.listFrom(1);
    expect(trail.map((entry) => [entry.action, entry.actorId])).toEqual([
      ['verification_proposed', 'admin-1'],
      ['verification_decided', 'admin-2'],
    ]);
    expect(trail[1]?.details).toMatchObject({ proposedBy: 'admin-1', from: 'pending', to: 'approved' });
  });

  it('decides the rejection of a pending government verification at once (only approvals and reversals need two), and holds its reversal', async () => {
    const { store, decide } = await fourEyesSetup('government');
    await store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1' });
    await decide({ adminId: 'admin-1', userId: 'u1', decision: approve });
    const reject = { decision: 'rejected', reasonCode: 'document_unreadable' } as const;
    // Rejecting an undecided government verification needs no second admin: it is decided.
    expect(await decide({ adminId: 'admin-2', userId: 'u1', decision: reject })).toMatchObject({
      outcome: 'decided',
      status: 'rejected',
    });
    // Reversing it does: admin-1's approval is now a reversal, proposed again.
    expect(await decide({ adminId: 'admin-1', userId: 'u1', decision: approve })).toMatchObject({
      outcome: 'proposed',
      status: 'rejected',
    });
    expect(store.states.get('u1')?.proposal).toMatchObject({ adminId: 'admin-1', fromStatus: 'rejected' });
  });

  it('needs a second admin to reverse any decision, commercial ones too, and none for a commercial approval', async () => {
    const { store, decide } = await fourEyesSetup('commercial');
    await store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1' });
    expect((await decide({ adminId: 'admin-1', userId: 'u1', decision: approve })).outcome).toBe('decided');
    const reject = {
      decision: 'rejected',
      reasonCode: 'document_unreadable',
      reason: 'Second look',
    } as const;
    expect((await decide({ adminId: 'admin-1', userId: 'u1', decision: reject })).outcome).toBe('proposed');
    expect(store.states.get('u1')?.status).toBe('approved');
    expect((await decide({ adminId: 'admin-2', userId: 'u1', decision: reject })).outcome).toBe('decided');
    expect(store.states.get('u1')?.status).toBe('rejected');
    expect((await store.audit.listFrom(1)).map((entry) => entry.action)).toEqual([
      'verification_decided',
      'verification_proposed',
      'verification_reversed',
    ]);
  });

  it('decides at once with four-eyes off, and lists a standing proposal in the queue', async () => {
    const off = await fourEyesSetup('defense', false);
    await off.store.seed({ userId: 'u1', status: 'pending', inquiryId: 'inq_1' });
    expect((await off.decide({ adminId: 'admin-1', userId: 'u1', decision: approve })).outcome).toBe(
      'decided',
    );

    const { store, decide } = await fourEyesSetup('defense');
    await store.seed({ userId: 'u2', status: 'pending', inquiryId: 'inq_2' });
    await decide({ adminId: 'admin-1', userId: 'u2', decision: approve });
    const listed = await listVerifications({ store, registrations: registrationsOf('defense') })({
      status: 'pending',
    });
    expect(listed.items[0]?.proposal).toEqual({
      decision: 'approved',
      reasonCode: 'identity_confirmed',
      adminId: 'admin-1',
      at: clock.now().toISOString(),
    });
  });
});

describe('allowNewAttempt', () => {
  async function allowSetup() {
    const { store, decide } = await setup();
    return { store, decide, allow: allowNewAttempt({ store, clock, audit: store.audit }) };
  }

  it('marks a rejected verification, keeps it rejected, and records who allowed it and why', async () => {
    const { store, allow } = await allowSetup();
    await store.seed({
      userId: 'u1',
      status: 'rejected',
      decidedBy: 'admin',
      inquiryId: 'inq_1',
      reasonCode: 'document_unreadable',
    });
    expect(await allow({ adminId: 'admin-1', userId: 'u1', reason: 'Sent a readable scan' })).toEqual({
      status: 'rejected',
      attempt: 1,
      changed: true,
    });
    expect(store.states.get('u1')).toMatchObject({ status: 'rejected', newAttemptAllowed: true });
    expect(store.history).toEqual([
      expect.objectContaining({
        from: 'rejected',
        to: 'rejected',
        by: 'admin',
        actorId: 'admin-1',
        reason: 'Sent a readable scan',
        action: 'new_attempt_allowed',
      }),
    ]);
    // Allowed already: the same answer, nothing written twice.
    expect(await allow({ adminId: 'admin-2', userId: 'u1', reason: 'Again' })).toMatchObject({
      changed: false,
    });
    expect(store.history).toHaveLength(1);
  });

  it('refuses what is not rejected, what is not there, an admin of their own, and a fourth attempt', async () => {
    const { store, allow } = await allowSetup();
    await store.seed({ userId: 'pending', status: 'pending', inquiryId: 'inq_p' });
    await store.seed({ userId: 'approved', status: 'approved', inquiryId: 'inq_a' });
    await store.seed({
      userId: 'spent',
      status: 'rejected',
      inquiryId: 'inq_s',
      attempt: maxVerificationAttempts,
    });
    await store.seed({ userId: 'admin-1', status: 'rejected', inquiryId: 'inq_o' });
    const reason = 'Let them try again';
    await expect(allow({ adminId: 'admin-1', userId: 'pending', reason })).rejects.toBeInstanceOf(
      VerificationNotRejectedError,
    );
    await expect(allow({ adminId: 'admin-1', userId: 'approved', reason })).rejects.toBeInstanceOf(
      VerificationNotRejectedError,
    );
    await expect(allow({ adminId: 'admin-1', userId: 'nobody', reason })).rejects.toBeInstanceOf(
      VerificationNotFoundError,
    );
    await expect(allow({ adminId: 'admin-1', userId: 'admin-1', reason })).rejects.toBeInstanceOf(
      OwnVerificationError,
    );
    await expect(allow({ adminId: 'admin-1', userId: 'spent', reason })).rejects.toBeInstanceOf(
      AttemptsExhaustedError,
    );
    expect(store.history).toEqual([]);
  });

  it('a new decision ends an allowance nobody used', async () => {
    const { store, allow, decide } = await allowSetup();
    await store.seed({ userId: 'u1', status: 'rejected', inquiryId: 'inq_1' });
    await allow({ adminId: 'admin-1', userId: 'u1', reason: 'Try again' });
    await decide({
      adminId: 'admin-2',
      userId: 'u1',
      decision: { decision: 'approved', reasonCode: 'identity_confirmed' },
    });
    expect(store.states.get('u1')).toMatchObject({ status: 'approved', newAttemptAllowed: false });
  });
});

describe('verificationDecisionRequest', () => {
  it.each([
    [{ decision: 'approved' }, 'reasonCode'],
    [{ decision: 'approved', reasonCode: 'no_such_code' }, 'reasonCode'],
    // Persona's own codes are not a reviewer's to pick.
    [{ decision: 'approved', reasonCode: 'checks_passed' }, 'reasonCode'],
    // A code of the other decision.
    [{ decision: 'approved', reasonCode: 'document_unreadable' }, 'reasonCode'],
    [{ decision: 'rejected', reasonCode: 'identity_confirmed' }, 'reasonCode'],
    [{ decision: 'approved', reasonCode: 'identity_confirmed', reason: 'x'.repeat(1001) }, 'reason'],
    [{ decision: 'maybe', reasonCode: 'identity_confirmed' }, 'decision'],
    [{ decision: 'approved', reasonCode: 'identity_confirmed', role: 'admin' }, ''],
  ])('refuses %j', (body, field) => {
    const result = verificationDecisionRequest.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join('.') ?? '').toBe(field);
  });

  it('accepts a code with a trimmed internal note, or without a note', () => {
    expect(
      verificationDecisionRequest.parse({
        decision: 'rejected',
        reasonCode: 'document_unreadable',
        reason: '  Blurry  ',
      }),
    ).toEqual({ decision: 'rejected', reasonCode: 'document_unreadable', reason: 'Blurry' });
    expect(
      verificationDecisionRequest.parse({ decision: 'approved', reasonCode: 'identity_confirmed' }),
    ).toEqual({
      decision: 'approved',
      reasonCode: 'identity_confirmed',
    });
  });

  it('offers every reviewer code with a message a person can read', () => {
    for (const decision of ['approved', 'rejected'] as const) {
      const codes = reviewerReasonCodes(decision);
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) expect(decisionReasons[code].message).toMatch(/^[A-Z].+\.$/);
    }
    expect(decisionReasons.document_unreadable.message).toBe('The photo of the document was unreadable.');
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

async function queue() {
  const { store, events, decide } = await setup();
  const registrations = new FakeRegistrations();
  return { store, events, decide, registrations, list: listVerifications({ store, registrations }) };
}

describe('listVerifications', () => {
  it('lists one status, or every status newest first for all', async () => {
    const { store, list } = await queue();
    await store.seed({
      userId: 'a',
      status: 'pending',
      updatedAt: '2026-01-02T00:00:00.000Z',
      inquiryId: 'inq_a',
    });
    await store.seed({
      userId: 'b',
      status: 'approved',
      updatedAt: '2026-01-03T00:00:00.000Z',
      inquiryId: 'inq_b',
      decidedBy: 'persona',
    });
    await store.seed({
      userId: 'c',
      status: 'pending',
      updatedAt: '2026-01-04T00:00:00.000Z',
      inquiryId: 'inq_c',
    });
    await store.seed({ userId: 'd', status: 'not_started', updatedAt: '2026-01-01T00:00:00.000Z' });
    const ids = async (filter: 'pending' | 'approved' | 'rejected' | 'all') =>
      (await list({ status: filter })).items.map((item) => item.userId);
    expect((await ids('pending')).sort()).toEqual(['a', 'c']);
    expect(await ids('all')).toEqual(['c', 'b', 'a', 'd']);
    expect(await ids('rejected')).toEqual([]);
    expect((await list({ status: 'approved' })).items[0]).toMatchObject({
      userId: 'b',
      status: 'approved',
      inquiryId: 'inq_b',
      updatedAt: '2026-01-03T00:00:00.000Z',
      decidedBy: 'persona',
    });
  });

  it("gives each item the user's organization, contact and inquiry from the registration", async () => {
    const { store, registrations, list } = await queue();
    await store.seed({ userId: 'auth0|d1', status: 'pending', inquiryId: 'inq_d1' });
    registrations.add('auth0|d1', {
      email: 'dana@northwatch-defense.example',
      responsibleName: 'Dana Defense',
      organizationName: 'Northwatch Defense',
      organizationUrl: 'https://northwatch-defense.example',
      organizationType: 'defense',
    });
    const { items, truncated } = await list({ status: 'pending' });
    expect(truncated).toBe(false);
    expect(items).toEqual([
      {
        userId: 'auth0|d1',
        status: 'pending',
        inquiryId: 'inq_d1',
        updatedAt: '2026-01-01T00:00:00.000Z',
        decidedBy: null,
        reasonCode: null,
        submitted: true,
        attempt: 1,
        newAttemptAllowed: false,
        email: 'dana@northwatch-defense.example',
        name: 'Dana Defense',
        organizationName: 'Northwatch Defense',
        organizationUrl: 'https://northwatch-defense.example',
        organizationType: 'defense',
        proposal: null,
        flaggedChecks: [],
        history: [],
      },
    ]);
  });

  it('lists an account without a registration with empty organization fields rather than guessing', async () => {
    const { store, list } = await queue();
    await store.seed({ userId: 'seeded', status: 'pending', inquiryId: 'inq_s' });
    expect((await list({ status: 'pending' })).items[0]).toMatchObject({
      userId: 'seeded',
      email: null,
      name: null,
      organizationName: null,
      organizationUrl: null,
      organizationType: null,
    });
  });

  it("carries the history oldest first: Persona's events and the admin's decision with its reason", async () => {
    const { store, events, decide, registrations, list } = await queue();
    await store.seed({ userId: 'u1', inquiryId: 'inq_1' });
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
      decision: { decision: 'approved', reasonCode: 'identity_confirmed', reason: 'ID matches' },
    });

    expect(await list({ status: 'pending' })).toEqual({ items: [], truncated: false, nextCursor: null });
    const [item] = (await list({ status: 'approved' })).items;
    expect(item?.decidedBy).toBe('admin');
    expect(item?.history).toEqual([
      {
        status: 'pending',
        previousStatus: 'not_started',
        decidedBy: 'persona',
        adminId: null,
        reason: 'inquiry.marked-for-review',
        reasonCode: null,
        action: 'status_changed',
        at: clock.now().toISOString(),
      },
      {
        status: 'approved',
        previousStatus: 'pending',
        decidedBy: 'admin',
        adminId: 'auth0|admin-1',
        reason: 'ID matches',
        reasonCode: 'identity_confirmed',
        action: 'status_changed',
        at: clock.now().toISOString(),
      },
    ]);
    expect(item?.reasonCode).toBe('identity_confirmed');
  });

  it('reads registrations and histories once per listing, for the listed users only', async () => {
    const { store, registrations, list } = await queue();
    await store.seed({ userId: 'p1', status: 'pending' });
    await store.seed({ userId: 'p2', status: 'pending' });
    await store.seed({ userId: 'r1', status: 'rejected' });
    await list({ status: 'pending' });
    expect(registrations.reads.map((ids) => [...ids].sort())).toEqual([['p1', 'p2']]);
    expect(store.historyReads.map((ids) => [...ids].sort())).toEqual([['p1', 'p2']]);
  });

  it('reads nothing more for an empty queue', async () => {
    const { store, registrations, list } = await queue();
    expect(await list({ status: 'pending' })).toEqual({ items: [], truncated: false, nextCursor: null });
    expect(registrations.reads).toEqual([]);
    expect(store.historyReads).toEqual([]);
  });

  it(`pages ${verificationPageSize} at a time with a cursor, newest or oldest first, every item once`, async () => {
    const { store, list } = await queue();
    const count = verificationPageSize * 2 + 5;
    for (let index = 0; index < count; index++) {
      // Pairs share a change time: the cursor must not split or repeat a tie.
      const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(index / 2) * 60_000).toISOString();
      await store.seed({
        userId: `u${String(index).padStart(3, '0')}`,
        status: index % 3 === 0 ? 'approved' : 'pending',
        updatedAt: at,
      });
    }
    for (const sort of ['newest', 'oldest'] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await list({ status: 'all', sort, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(verificationPageSize);
        expect(page.truncated).toBe(false);
        seen.push(...page.items.map((item) => item.userId));
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(new Set(seen).size).toBe(count);
      const times = seen.map((userId) => store.states.get(userId)?.updatedAt ?? '');
      const sorted = [...times].sort();
      expect(times).toEqual(sort === 'newest' ? sorted.reverse() : sorted);
    }
    const first = await list({ status: 'pending' });
    expect(first.items).toHaveLength(verificationPageSize);
    expect(first.items.every((item) => item.status === 'pending')).toBe(true);
    expect((await list({ status: 'rejected' })).nextCursor).toBeNull();
  });

  it('searches the organization and the email, ignoring case, and pages the matches', async () => {
    const { store, registrations, list } = await queue();
    for (let index = 0; index < 30; index++) {
      const userId = `s${String(index).padStart(2, '0')}`;
      await store.seed({
        userId,
        status: 'pending',
        inquiryId: `inq_${userId}`,
        updatedAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
      });
      registrations.add(userId, {
        email: index === 7 ? 'mira@helix-bio.example' : `${userId}@northwatch-defense.example`,
        organizationName: index === 7 ? 'Helix Biosciences' : `Northwatch Defense ${index}`,
      });
    }
    const byName = await list({ q: 'HELIX' });
    expect(byName.items.map((item) => item.userId)).toEqual(['s07']);
    expect(byName).toMatchObject({ nextCursor: null, truncated: false });
    expect((await list({ q: 'mira@helix' })).items.map((item) => item.userId)).toEqual(['s07']);
    expect((await list({ q: 'nobody' })).items).toEqual([]);

    const northwatch = await list({ q: 'northwatch', sort: 'oldest' });
    expect(northwatch.items).toHaveLength(verificationPageSize);
    expect(northwatch.items[0]?.userId).toBe('s00');
    const rest = await list({ q: 'northwatch', sort: 'oldest', cursor: northwatch.nextCursor ?? '' });
    expect(rest.items.map((item) => item.userId)).toEqual(['s26', 's27', 's28', 's29']);
    expect(rest.nextCursor).toBeNull();
  });

  it('refuses a cursor that is not one of its own, and a search too short or too long (400 field errors)', () => {
    for (const query of [
      { cursor: 'not-a-cursor' },
      { cursor: encodeVerificationCursor({ updatedAt: 'yesterday', userId: 'u1' }) },
      { q: 'a' },
      { q: 'x'.repeat(101) },
      { sort: 'alphabetical' },
      { page: '2' },
    ]) {
      expect(listVerificationsQuery.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
    const cursor = encodeVerificationCursor({ updatedAt: '2026-01-01T00:00:00.000Z', userId: 'auth0|ü' });
    expect(decodeVerificationCursor(cursor)).toEqual({
      updatedAt: '2026-01-01T00:00:00.000Z',
      userId: 'auth0|ü',
    });
    expect(listVerificationsQuery.safeParse({ cursor, q: ' helix ', sort: 'oldest' })).toMatchObject({
      success: true,
      data: { q: 'helix' },
    });
  });
});
