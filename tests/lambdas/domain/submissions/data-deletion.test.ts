import { describe, expect, it } from 'vitest';
import { dataDeletionReceiptEmail } from '#lambdas/domain/emails/data-deletion.ts';
import { recipientKey } from '#lambdas/domain/emails/recipient-limit.ts';
import {
  AccountNotFoundError,
  DeletionConfirmationInvalidError,
  DeletionNotCancellableError,
  DeletionRequestNotFoundError,
  EmailNotVerifiedError,
  RateLimitedError,
} from '#lambdas/domain/errors.ts';
import type { Clock } from '#lambdas/domain/ports.ts';
import { signedInWriteLimits } from '#lambdas/domain/signed-in-limits.ts';
import {
  cancelOwnDataDeletion,
  confirmDataDeletion,
  dueDate,
  hashToken,
  requestDataDeletion,
  requestOwnDataDeletion,
} from '#lambdas/domain/submissions/data-deletion.ts';
import { FakeLimiter, FakeProfiles } from '#tests/lambdas/domain/account/fakes.ts';
import { MemoryMailer, MemorySubmissionStore, sequentialIds } from './fakes.ts';

function movableClock(iso: string): Clock & { advanceHours(hours: number): void } {
  let now = new Date(iso).getTime();
  return {
    now: () => new Date(now),
    advanceHours: (hours) => {
      now += hours * 3600 * 1000;
    },
  };
}

function setup() {
  const store = new MemorySubmissionStore();
  const mailer = new MemoryMailer();
  const clock = movableClock('2026-02-10T23:30:00.000Z');
  const limiter = new FakeLimiter(() => clock.now().getTime());
  const request = requestDataDeletion({
    store,
    mailer,
    limiter,
    clock,
    newId: sequentialIds('del'),
    appUrl: 'https://platform.example/',
  });
  const confirm = confirmDataDeletion({ requests: store, clock });
  return { store, mailer, clock, limiter, request, confirm };
}

/** The token as the person's browser reads it from the emailed link's fragment. */
function tokenFrom(mailer: MemoryMailer, index = 0): string {
  const link = /https:\/\/platform\.example\/data-deletion\/confirm#token=(\S+)/.exec(
    mailer.sent[index]?.text ?? '',
  );
  if (!link?.[1]) throw new Error('no confirmation link in the email');
  return decodeURIComponent(link[1]);
}

describe('asking for data deletion in the public form', () => {
  it('stores the request unconfirmed, with no deadline yet and only a hash of the token', async () => {
    const { store, mailer, request } = setup();
    const answer = await request({ email: 'Someone@Gmail.com', name: 'Some One', details: 'All of it' });
    expect(answer).toMatchObject({
      requestId: 'del-1',
      confirmBy: '2026-02-11T23:30:00.000Z',
      dueBy: '2026-03-13',
    });
    const token = tokenFrom(mailer);
    expect(store.all()).toEqual([
      {
        kind: 'deletion_request',
        requestId: 'del-1',
        email: 'someone@gmail.com',
        name: 'Some One',
        details: 'All of it',
        status: 'unconfirmed',
        receivedAt: '2026-02-10T23:30:00.000Z',
        confirmationTokenHash: hashToken(token),
        confirmBy: '2026-02-11T23:30:00.000Z',
        expiresAt: Date.parse('2026-02-18T23:30:00.000Z') / 1000,
      },
    ]);
    expect(JSON.stringify(store.all())).not.toContain(token.split('.')[1]);
  });

  it('emails the address a link to confirm, valid for 24 hours', async () => {
    const { mailer, request } = setup();
    await request({ email: 'someone@gmail.com' });
    expect(mailer.sent).toHaveLength(1);
    const [email] = mailer.sent;
    expect(email?.to).toBe('someone@gmail.com');
    expect(email?.subject).toBe('Confirm your data deletion request');
    expect(email?.text).toContain('before 2026-02-11 23:30 UTC');
    expect(email?.text).toContain('Nothing happens until you confirm');
    expect(tokenFrom(mailer)).toMatch(/^del-1\./);
  });

  it('confirms with the emailed token: the 30 days run from the confirmation', async () => {
    const { store, mailer, clock, request, confirm } = setup();
    await request({ email: 'someone@gmail.com' });
    clock.advanceHours(23);
    await expect(confirm(tokenFrom(mailer))).resolves.toEqual({ requestId: 'del-1', dueBy: '2026-03-13' });
    expect(store.all()[0]).toMatchObject({
      status: 'received',
      confirmedAt: '2026-02-11T22:30:00.000Z',
      confirmedBy: 'email_link',
      dueBy: '2026-03-13',
    });
    expect(store.all()[0]).not.toHaveProperty('confirmationTokenHash');
    expect(store.all()[0]).not.toHaveProperty('expiresAt');
  });

  it('refuses a token used once already, an expired one, and a wrong one', async () => {
    const { mailer, clock, request, confirm } = setup();
    await request({ email: 'first@gmail.com' });
    await request({ email: 'second@gmail.com' });
    const first = tokenFrom(mailer, 0);
    const second = tokenFrom(mailer, 1);
    await confirm(first);
    await expect(confirm(first)).rejects.toBeInstanceOf(DeletionConfirmationInvalidError);
    // Another request's id with a made-up secret.
    await expect(confirm(`del-2.${'A'.repeat(43)}`)).rejects.toBeInstanceOf(DeletionConfirmationInvalidError);
    await expect(confirm('no-dot')).rejects.toBeInstanceOf(DeletionConfirmationInvalidError);
    clock.advanceHours(24);
    await expect(confirm(second)).rejects.toBeInstanceOf(DeletionConfirmationInvalidError);
  });

  it('answers the same when the confirmation email fails, and says so to the handler', async () => {
    const { store, mailer, request } = setup();
    mailer.failWith = new Error('SES throttled');
    const answer = await request({ email: 'someone@gmail.com' });
    expect(answer).toMatchObject({ requestId: 'del-1', outcome: 'email_failed' });
    expect(answer.confirmationError).toBe(mailer.failWith);
    expect(store.all()).toHaveLength(1);
  });

  it('sends at most 3 confirmation emails a day to one address, answering every request the same', async () => {
    const { mailer, clock, limiter, request } = setup();
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(await request({ email: i % 2 ? 'Victim@Gmail.com' : 'victim@gmail.com ' }));
    expect(mailer.sent).toHaveLength(3);
    expect(answers.map((a) => a.outcome)).toEqual([
      'emailed',
      'emailed',
      'emailed',
      'over_recipient_limit',
      'over_recipient_limit',
    ]);
    for (const answer of answers)
      expect(Object.keys(answer).sort()).toEqual(['confirmBy', 'dueBy', 'outcome', 'requestId']);
    // Another address has its own budget; the limiter keeps a hash, never the address.
    await request({ email: 'other@gmail.com' });
    expect(mailer.sent).toHaveLength(4);
    expect(limiter.subjects().join()).not.toContain('gmail');
    expect(limiter.subjects()).toContain(`deletion-confirmation-email#${recipientKey('victim@gmail.com')}`);
    clock.advanceHours(24);
    await request({ email: 'victim@gmail.com' });
    expect(mailer.sent).toHaveLength(5);
  });

  it("leaves the requester's name and details out of the confirmation email (ADR 0072)", async () => {
    const { mailer, request } = setup();
    await request({
      email: 'victim@company.example',
      name: 'Support: your mailbox is full, log in at mail-helpdesk.example',
      details: 'Call +1 555 0100 now',
    });
    expect(mailer.sent).toHaveLength(1);
    const [mail] = mailer.sent;
    for (const part of [mail?.subject, mail?.text, mail?.html]) {
      expect(part).not.toContain('mailbox is full');
      expect(part).not.toContain('mail-helpdesk');
      expect(part).not.toContain('555');
    }
    expect(mail?.text).toContain('Hello, someone (probably you) asked us to delete');
  });

  it('counts the confirmation emails per mailbox: +tags, case and Gmail dots share the 3 a day (ADR 0072)', async () => {
    const { mailer, request } = setup();
    const outcomes = [];
    for (const email of [
      'victim+1@company.example',
      'Victim+2@COMPANY.example',
      'victim@company.example',
      'VICTIM+3@company.example',
    ])
      outcomes.push((await request({ email })).outcome);
    expect(outcomes).toEqual(['emailed', 'emailed', 'emailed', 'over_recipient_limit']);
    // Each email still goes to the address as written (lowercased), not to the folded mailbox.
    expect(mailer.sent.map((m) => m.to)).toEqual([
      'victim+1@company.example',
      'victim+2@company.example',
      'victim@company.example',
    ]);
    for (const email of ['j.doe@gmail.com', 'jdoe+x@googlemail.com', 'J.D.O.E@Gmail.com', 'jd.oe@gmail.com'])
      outcomes.push((await request({ email })).outcome);
    expect(outcomes.slice(4)).toEqual(['emailed', 'emailed', 'emailed', 'over_recipient_limit']);
    // Elsewhere dots are part of the name: another person, another budget.
    outcomes.push((await request({ email: 'v.ictim@company.example' })).outcome);
    expect(outcomes.at(-1)).toBe('emailed');
  });

  it('counts the deadline in UTC days across month ends and leap years', () => {
    expect(dueDate(new Date('2028-02-01T00:00:00Z'))).toBe('2028-03-02');
    expect(dueDate(new Date('2026-12-15T12:00:00Z'))).toBe('2027-01-14');
  });
});

describe("asking for the signed-in person's own data deletion", () => {
  function own() {
    const store = new MemorySubmissionStore();
    const mailer = new MemoryMailer();
    const profiles = new FakeProfiles();
    const clock = movableClock('2026-02-10T23:30:00.000Z');
    const limiter = new FakeLimiter(() => clock.now().getTime());
    const request = requestOwnDataDeletion({
      profiles,
      requests: store,
      mailer,
      clock,
      newId: sequentialIds('own'),
      limiter,
    });
    const cancel = cancelOwnDataDeletion({ requests: store, clock });
    return { store, mailer, profiles, request, cancel, clock };
  }

  it("is confirmed by the token, for the account's own address, due 30 days later", async () => {
    const { store, mailer, profiles, request } = own();
    await profiles.saveAccount({ userId: 'auth0|owner', email: 'Owner@Company.example', name: 'Owner' });
    await expect(
      request(
        { userId: 'auth0|owner', emailVerified: true, claims: { email: 'someone@else.example' } },
        { details: 'all' },
      ),
    ).resolves.toEqual({ requestId: 'own-1', dueBy: '2026-03-12' });
    expect(store.all()).toEqual([
      expect.objectContaining({
        email: 'owner@company.example',
        status: 'received',
        confirmedBy: 'access_token',
        confirmedAt: '2026-02-10T23:30:00.000Z',
        dueBy: '2026-03-12',
      }),
    ]);
    expect(mailer.sent.map((m) => m.to)).toEqual(['owner@company.example']);
  });

  it("takes the token's address for an account without a profile, and refuses an erased account", async () => {
    const { store, profiles, request } = own();
    await request(
      { userId: 'auth0|admin', emailVerified: true, claims: { email: 'admin@company.example' } },
      {},
    );
    expect(store.all().map((item) => (item as { email?: string }).email)).toEqual(['admin@company.example']);
    profiles.erased.add('auth0|gone');
    await expect(
      request({ userId: 'auth0|gone', emailVerified: true, claims: { email: 'gone@company.example' } }, {}),
    ).rejects.toBeInstanceOf(AccountNotFoundError);
    expect(store.all()).toHaveLength(1);
  });

  it('answers a second request while one is pending with the pending one: nothing stored or sent (ADR 0076)', async () => {
    const { store, mailer, profiles, request, clock } = own();
    await profiles.saveAccount({ userId: 'auth0|owner', email: 'owner@company.example', name: 'Owner' });
    const owner = { userId: 'auth0|owner', emailVerified: true, claims: {} };
    const first = await request(owner, {});
    clock.advanceHours(30);
    await expect(request(owner, { details: 'again' })).resolves.toEqual({ ...first, alreadyPending: true });
    expect(store.all()).toHaveLength(1);
    expect(mailer.sent).toHaveLength(1);
  });

  it("cancels a pending request once, and refuses another person's id and one being carried out", async () => {
    const { store, profiles, request, cancel } = own();
    await profiles.saveAccount({ userId: 'auth0|owner', email: 'owner@company.example', name: 'Owner' });
    const owner = { userId: 'auth0|owner', emailVerified: true, claims: {} };
    const { requestId } = await request(owner, {});
    await expect(cancel({ userId: 'auth0|other' }, requestId)).rejects.toBeInstanceOf(
      DeletionRequestNotFoundError,
    );
    await cancel(owner, requestId);
    expect(store.all()).toEqual([expect.objectContaining({ requestId, status: 'cancelled' })]);
    await expect(cancel(owner, requestId)).rejects.toBeInstanceOf(DeletionRequestNotFoundError);
    // A new request after the cancellation is a new one; the operator starting it ends the choice.
    const second = await request(owner, {});
    expect(second.requestId).not.toBe(requestId);
    const stored = store.items.get(`DELETION#${second.requestId}|REQUEST`);
    if (stored?.kind !== 'deletion_request') throw new Error('not stored');
    stored.status = 'in_progress';
    await expect(cancel(owner, second.requestId)).rejects.toBeInstanceOf(DeletionNotCancellableError);
  });

  it('takes at most 3 requests a day from one person, then 429 with nothing stored or sent (ADR 0072)', async () => {
    const { store, mailer, profiles, request, cancel, clock } = own();
    await profiles.saveAccount({ userId: 'auth0|owner', email: 'owner@company.example', name: 'Owner' });
    const owner = { userId: 'auth0|owner', emailVerified: true, claims: {} };
    const { limit } = signedInWriteLimits['own-deletion-request'];
    // Each filed and withdrawn: a pending request would answer the next one without spending.
    for (let i = 0; i < limit; i++) await cancel(owner, (await request(owner, {})).requestId);
    const refused = await request(owner, {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(24 * 3600);
    expect(store.all()).toHaveLength(limit);
    expect(mailer.sent).toHaveLength(limit);
    clock.advanceHours(24);
    await request(owner, {});
    expect(store.all()).toHaveLength(limit + 1);
  });

  it('refuses a caller whose address is not verified, and stores nothing', async () => {
    const { store, profiles, request } = own();
    await profiles.saveAccount({ userId: 'auth0|new', email: 'new@company.example', name: 'New' });
    await expect(
      request({ userId: 'auth0|new', emailVerified: false, claims: {} }, {}),
    ).rejects.toBeInstanceOf(EmailNotVerifiedError);
    expect(store.all()).toEqual([]);
  });

  it('escapes a name in the HTML of the receipt', () => {
    const email = dataDeletionReceiptEmail({
      to: 'a@b.example',
      requestId: 'r1',
      dueBy: '2026-01-01',
      name: '<script>x</script>',
      locale: 'en',
    });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;');
  });
});
