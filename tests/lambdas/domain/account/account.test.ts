import { describe, expect, it } from 'vitest';
import { getMe } from '#lambdas/domain/account/get-me.ts';
import { notifyKycDecision, notifyRegistration } from '#lambdas/domain/account/notify.ts';
import {
  deliverVerificationEmail,
  requestVerificationEmail,
} from '#lambdas/domain/account/send-verification-email.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import type { UserProfile } from '#lambdas/domain/ports.ts';
import { signedInWriteLimits } from '#lambdas/domain/signed-in-limits.ts';
import { InMemoryConsentLedger, RecordingPublisher, sampleEntry } from '#tests/lambdas/domain/fakes.ts';
import { FakeDirectory, FakeKyc, FakeLimiter, FakeMailer, FakeMarker, FakeProfiles } from './fakes.ts';

const consentEntry = (subjectId: string, action: 'granted' | 'withdrawn') =>
  sampleEntry({ subjectId, action });

describe('getMe', () => {
  function setup() {
    const kyc = new FakeKyc();
    const ledger = new InMemoryConsentLedger();
    const profiles = new FakeProfiles();
    return {
      kyc,
      ledger,
      profiles,
      me: getMe({
        profiles,
        kyc,
        ledger,
        deletions: { pendingById: async () => undefined, pendingOf: async () => undefined },
      }),
    };
  }
  const caller = (overrides: Partial<Caller> = {}): Caller => ({
    userId: 'auth0|ada',
    issuer: 'https://tenant.example/',
    role: 'user',
    emailVerified: true,
    claims: {},
    ...overrides,
  });
  const profile = (overrides: Partial<UserProfile> = {}): UserProfile => ({
    userId: 'auth0|ada',
    email: 'a@b.example',
    name: 'Ada',
    organizationName: 'Helix',
    organizationType: 'defense',
    organizationId: null,
    organizationRole: null,
    organizationRemovedAt: null,
    auth0Kyc: null,
    auth0Unsettled: false,
    ...overrides,
  });

  it("tells a rejected person the decision's reason and whether a new attempt is allowed", async () => {
    const s = setup();
    s.kyc.states.set('auth0|ada', {
      status: 'rejected',
      updatedAt: 't',
      inquiryId: 'inq',
      reasonCode: 'document_unreadable',
      attempt: 2,
      newAttemptAllowed: true,
    });
    expect(await s.me(caller())).toMatchObject({
      kycStatus: 'rejected',
      kycReason: { code: 'document_unreadable', message: 'The photo of the document was unreadable.' },
      kycNewAttemptAllowed: true,
      kycAttempts: { used: 2, max: 3 },
      deletionRequest: null,
    });
    // The admin's internal note never reaches the person: only the code's message does.
    s.kyc.states.set('auth0|ada', {
      status: 'pending',
      updatedAt: 't',
      inquiryId: 'inq',
      reasonCode: 'document_unreadable',
    });
    expect(await s.me(caller())).toMatchObject({ kycReason: null, kycNewAttemptAllowed: false });
  });

  it('answers from the profile and the KYC table, preferring both over the token, with role and email_verified from the token', async () => {
    const s = setup();
    s.profiles.profiles.set('auth0|ada', profile({ auth0Kyc: { status: 'not_started', updatedAt: 't0' } }));
    s.kyc.states.set('auth0|ada', { status: 'pending', updatedAt: 't', inquiryId: 'inq' });
    const answer = await s.me(
      caller({
        emailVerified: false,
        claims: {
          email: 'old@b.example',
          name: 'Old',
          kycStatus: 'not_started',
          organizationType: 'academic',
        },
      }),
    );
    expect(answer).toEqual({
      userId: 'auth0|ada',
      email: 'a@b.example',
      emailVerified: false,
      name: 'Ada',
      organizationName: 'Helix',
      organizationType: 'defense',
      organizationId: null,
      organizationRole: null,
      role: 'user',
      kycStatus: 'pending',
      consentRecorded: false,
      consentWithdrawn: false,
      kycReason: null,
      kycNewAttemptAllowed: false,
      kycAttempts: { used: 1, max: 3 },
      deletionRequest: null,
    });
  });

  it("answers an account created outside registration from the token's claims", async () => {
    const s = setup();
    const answer = await s.me(
      caller({
        role: 'admin',
        claims: {
          email: 'admin@b.example',
          name: 'Admin',
          kycStatus: 'approved',
          organizationType: 'commercial',
        },
      }),
    );
    expect(answer).toMatchObject({
      email: 'admin@b.example',
      name: 'Admin',
      kycStatus: 'approved',
      role: 'admin',
      organizationName: null,
      organizationType: 'commercial',
    });
  });

  it("prefers the sync's record of Auth0 over an older token when the table has never seen the user", async () => {
    const s = setup();
    s.profiles.profiles.set('auth0|ada', profile({ auth0Kyc: { status: 'approved', updatedAt: 't1' } }));
    expect((await s.me(caller({ claims: { kycStatus: 'pending' } })))?.kycStatus).toBe('approved');
  });

  it('counts consent only while the latest identity-verification record is a grant, and says when it is a withdrawal', async () => {
    const s = setup();
    const consent = async () => {
      const me = await s.me(caller());
      return { consentRecorded: me?.consentRecorded, consentWithdrawn: me?.consentWithdrawn };
    };
    expect(await consent()).toEqual({ consentRecorded: false, consentWithdrawn: false });
    await s.ledger.append(consentEntry('auth0|ada', 'granted'));
    expect(await consent()).toEqual({ consentRecorded: true, consentWithdrawn: false });
    await s.ledger.append(consentEntry('auth0|ada', 'withdrawn'));
    expect(await consent()).toEqual({ consentRecorded: false, consentWithdrawn: true });
    await s.ledger.append(consentEntry('auth0|ada', 'granted'));
    expect(await consent()).toEqual({ consentRecorded: true, consentWithdrawn: false });
  });

  it('answers undefined for an account the product erased, whatever its token says', async () => {
    const s = setup();
    s.profiles.erased.add('auth0|ada');
    expect(await s.me(caller({ claims: { email: 'a@b.example', name: 'Ada' } }))).toBeUndefined();
  });
});

describe('requestVerificationEmail and its delivery', () => {
  const person = (emailVerified: boolean) => ({ userId: 'auth0|ada', emailVerified });

  it('queues one a minute, then says when to retry, and the delivery starts the Auth0 job', async () => {
    let now = 0;
    const events = new RecordingPublisher();
    const request = requestVerificationEmail({ limiter: new FakeLimiter(() => now), events });
    expect(await request(person(false))).toEqual({ outcome: 'queued' });
    now = 15_000;
    await expect(request(person(false))).rejects.toEqual(
      expect.objectContaining({
        name: 'RateLimitedError',
        action: 'verification-email',
        retryAfterSeconds: 45,
        message: expect.stringContaining('try again in 45 seconds'),
      }),
    );
    now = 60_000;
    expect(await request(person(false))).toEqual({ outcome: 'queued' });
    expect(events.published).toEqual([
      { detailType: 'VerificationEmailRequested', detail: { userId: 'auth0|ada' } },
      { detailType: 'VerificationEmailRequested', detail: { userId: 'auth0|ada' } },
    ]);

    const users = new FakeDirectory();
    const user = users.add({ email: 'a@b.example', emailVerified: false });
    expect(await deliverVerificationEmail({ users })(user.userId)).toBe('sent');
    expect(users.verificationEmails).toEqual([user.userId]);
    expect(await deliverVerificationEmail({ users })('auth0|gone')).toBe('user_missing');
  });

  it('queues at most 10 a day, one a minute, then says to wait for the day and queues nothing (ADR 0072)', async () => {
    let now = 0;
    const events = new RecordingPublisher();
    const request = requestVerificationEmail({ limiter: new FakeLimiter(() => now), events });
    const { limit } = signedInWriteLimits['verification-email-daily'];
    for (let i = 0; i < limit; i++) {
      now = i * 60_000;
      expect(await request(person(false))).toEqual({ outcome: 'queued' });
    }
    now = limit * 60_000;
    await expect(request(person(false))).rejects.toEqual(
      expect.objectContaining({
        name: 'RateLimitedError',
        action: 'verification-email-daily',
        retryAfterSeconds: 24 * 3600 - limit * 60,
      }),
    );
    expect(events.published).toHaveLength(limit);
    now = 24 * 3600 * 1000;
    expect(await request(person(false))).toEqual({ outcome: 'queued' });
  });

  it('gives the minute back when the send could not be queued, so sending again at once works', async () => {
    const limiter = new FakeLimiter(() => 0);
    const events = new RecordingPublisher();
    const request = requestVerificationEmail({ limiter, events });
    events.failNext = 1;
    await expect(request(person(false))).rejects.toThrow('EventBridge refused');
    expect(await request(person(false))).toEqual({ outcome: 'queued' });
    await expect(request(person(false))).rejects.toMatchObject({ name: 'RateLimitedError' });
    expect(events.published).toHaveLength(1);
  });

  it('queues nothing for a verified address, and takes no minute of the limit', async () => {
    let acquired = 0;
    const limiter = new FakeLimiter(() => {
      acquired += 1;
      return 0;
    });
    const events = new RecordingPublisher();
    expect(await requestVerificationEmail({ limiter, events })(person(true))).toEqual({
      outcome: 'already_verified',
    });
    expect(events.published).toEqual([]);
    expect(acquired).toBe(0);
  });
});

describe('decision and registration notifications', () => {
  const detail = (userId: string, status: 'approved' | 'rejected' | 'pending') => ({
    userId,
    status,
    previousStatus: 'pending' as const,
    inquiryId: null,
    decidedBy: 'admin' as const,
    occurredAt: 't',
  });

  it('emails a decision once per event id, and again after a failed send is retried', async () => {
    const users = new FakeDirectory();
    const user = users.add({ email: 'a@b.example', name: 'Ada' });
    const mailer = new FakeMailer();
    const notify = notifyKycDecision({
      profiles: new FakeProfiles(),
      users: async () => users,
      mailer,
      marker: new FakeMarker(),
      appUrl: 'https://app.example',
    });
    mailer.failNext = true;
    await expect(notify('evt-1', detail(user.userId, 'rejected'))).rejects.toThrow();
    expect(await notify('evt-1', detail(user.userId, 'rejected'))).toBe('sent');
    expect(await notify('evt-1', detail(user.userId, 'rejected'))).toBe('duplicate');
    expect(await notify('evt-2', detail(user.userId, 'pending'))).toBe('ignored');
    expect(mailer.sent.map((m) => [m.to, m.subject])).toEqual([
      ['a@b.example', 'Your identity verification was not approved'],
    ]);
  });

  it("sends a decision to the profile's address without asking Auth0 (ADR 0059), and nothing for an erased account", async () => {
    const profiles = new FakeProfiles();
    await profiles.saveAccount({ userId: 'auth0|p', email: 'p@b.example', name: 'Pat' });
    const mailer = new FakeMailer();
    let directoryAsked = 0;
    const notify = notifyKycDecision({
      profiles,
      users: async () => {
        directoryAsked += 1;
        return new FakeDirectory();
      },
      mailer,
      marker: new FakeMarker(),
      appUrl: 'https://app.example',
    });
    expect(await notify('evt-1', detail('auth0|p', 'approved'))).toBe('sent');
    expect(mailer.sent.map((m) => m.to)).toEqual(['p@b.example']);
    profiles.erased.add('auth0|p');
    expect(await notify('evt-2', detail('auth0|p', 'rejected'))).toBe('user_missing');
    expect(directoryAsked).toBe(0);
  });

  it('tells operations the organization and user id only', async () => {
    const mailer = new FakeMailer();
    const notify = notifyRegistration({
      mailer,
      marker: new FakeMarker(),
      operationsEmail: 'ops@example.com',
    });
    await notify('evt-1', {
      userId: 'auth0|1',
      organizationName: 'Helix',
      organizationType: 'government',
      occurredAt: 't',
    });
    await notify('evt-1', {
      userId: 'auth0|1',
      organizationName: 'Helix',
      organizationType: 'government',
      occurredAt: 't',
    });
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: 'ops@example.com', subject: 'New registration: Helix' });
    expect(mailer.sent[0]?.text).toContain('auth0|1');
  });
});
