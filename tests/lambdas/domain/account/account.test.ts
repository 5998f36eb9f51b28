import { describe, expect, it } from 'vitest';
import { getMe } from '#lambdas/domain/account/get-me.ts';
import { notifyKycDecision, notifyRegistration } from '#lambdas/domain/account/notify.ts';
import { sendVerificationEmail } from '#lambdas/domain/account/send-verification-email.ts';
import { AccountNotFoundError } from '#lambdas/domain/errors.ts';
import { InMemoryConsentLedger, sampleEntry } from '#tests/lambdas/domain/fakes.ts';
import {
  FakeDirectory,
  FakeKyc,
  FakeLimiter,
  FakeMailer,
  FakeMarker,
  FakeRegistrationStore,
} from './fakes.ts';

const consentEntry = (subjectId: string, action: 'granted' | 'withdrawn') =>
  sampleEntry({ subjectId, action });

describe('getMe', () => {
  function setup() {
    const users = new FakeDirectory();
    const kyc = new FakeKyc();
    const ledger = new InMemoryConsentLedger();
    const registrations = new FakeRegistrationStore();
    return { users, kyc, ledger, registrations, me: getMe({ users, kyc, ledger, registrations }) };
  }

  it("tells a rejected person the decision's reason and whether a new attempt is allowed", async () => {
    const s = setup();
    const user = s.users.add({ email: 'r@b.example', name: 'Rae' });
    s.kyc.states.set(user.userId, {
      status: 'rejected',
      updatedAt: 't',
      inquiryId: 'inq',
      reasonCode: 'document_unreadable',
      attempt: 2,
      newAttemptAllowed: true,
    });
    expect(await s.me(user.userId)).toMatchObject({
      kycStatus: 'rejected',
      kycReason: { code: 'document_unreadable', message: 'The photo of the document was unreadable.' },
      kycNewAttemptAllowed: true,
      kycAttempts: { used: 2, max: 3 },
    });
    // The admin's internal note never reaches the person: only the code's message does.
    s.kyc.states.set(user.userId, {
      status: 'pending',
      updatedAt: 't',
      inquiryId: 'inq',
      reasonCode: 'document_unreadable',
    });
    expect(await s.me(user.userId)).toMatchObject({ kycReason: null, kycNewAttemptAllowed: false });
  });

  it('prefers the KYC table over app_metadata and reads the organization from the registration', async () => {
    const s = setup();
    const user = s.users.add({
      email: 'a@b.example',
      name: 'Ada',
      appMetadata: { role: 'user', kyc_status: 'not_started', organization_type: 'academic' },
    });
    s.kyc.states.set(user.userId, { status: 'pending', updatedAt: 't', inquiryId: 'inq' });
    await s.registrations.saveRegistrationOnce({
      userId: user.userId,
      email: 'a@b.example',
      responsibleName: 'Ada',
      responsibleTitle: 'CTO',
      responsiblePhone: '12345',
      organizationName: 'Helix',
      organizationUrl: 'https://helix.example',
      organizationType: 'defense',
      createdAt: 't',
    });
    expect(await s.me(user.userId)).toEqual({
      userId: user.userId,
      email: 'a@b.example',
      emailVerified: true,
      name: 'Ada',
      organizationName: 'Helix',
      organizationType: 'defense',
      role: 'user',
      kycStatus: 'pending',
      consentRecorded: false,
      kycReason: null,
      kycNewAttemptAllowed: false,
      kycAttempts: { used: 1, max: 3 },
    });
  });

  it("falls back to app_metadata's status only when the table has never seen the user", async () => {
    const s = setup();
    const user = s.users.add({
      email: 'a@b.example',
      appMetadata: { role: 'admin', kyc_status: 'approved' },
    });
    expect(await s.me(user.userId)).toMatchObject({
      kycStatus: 'approved',
      role: 'admin',
      organizationName: null,
    });
  });

  it('counts consent only while the latest identity-verification record is a grant', async () => {
    const s = setup();
    const user = s.users.add({ email: 'a@b.example' });
    await s.ledger.append(consentEntry(user.userId, 'granted'));
    expect((await s.me(user.userId))?.consentRecorded).toBe(true);
    await s.ledger.append(consentEntry(user.userId, 'withdrawn'));
    expect((await s.me(user.userId))?.consentRecorded).toBe(false);
  });

  it('answers undefined for a user the directory no longer has', async () => {
    expect(await setup().me('auth0|gone')).toBeUndefined();
  });
});

describe('sendVerificationEmail', () => {
  it('sends one a minute, then says when to retry', async () => {
    let now = 0;
    const users = new FakeDirectory();
    const user = users.add({ email: 'a@b.example', emailVerified: false });
    const send = sendVerificationEmail({ users, limiter: new FakeLimiter(() => now) });
    expect(await send(user.userId)).toEqual({ outcome: 'sent' });
    now = 15_000;
    await expect(send(user.userId)).rejects.toEqual(
      expect.objectContaining({
        name: 'RateLimitedError',
        action: 'verification-email',
        retryAfterSeconds: 45,
      }),
    );
    now = 60_000;
    expect(await send(user.userId)).toEqual({ outcome: 'sent' });
    expect(users.verificationEmails).toHaveLength(2);
  });

  it('refuses a deleted account without touching the limiter', async () => {
    let acquired = 0;
    const limiter = new FakeLimiter(() => {
      acquired += 1;
      return 0;
    });
    await expect(
      sendVerificationEmail({ users: new FakeDirectory(), limiter })('auth0|gone'),
    ).rejects.toBeInstanceOf(AccountNotFoundError);
    expect(acquired).toBe(0);
  });

  it('sends nothing to a verified address', async () => {
    const users = new FakeDirectory();
    const user = users.add({ email: 'a@b.example', emailVerified: true });
    expect(await sendVerificationEmail({ users, limiter: new FakeLimiter(() => 0) })(user.userId)).toEqual({
      outcome: 'already_verified',
    });
    expect(users.verificationEmails).toEqual([]);
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
      users,
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
