import { describe, expect, it } from 'vitest';
import { dataDeletionConfirmationEmail } from '#lambdas/domain/emails/data-deletion.ts';
import { dueDate, requestDataDeletion } from '#lambdas/domain/submissions/data-deletion.ts';
import { fixedClock, MemoryMailer, MemorySubmissionStore, sequentialIds } from './fakes.ts';

function setup() {
  const store = new MemorySubmissionStore();
  const mailer = new MemoryMailer();
  const request = requestDataDeletion({
    store,
    mailer,
    clock: fixedClock('2026-02-10T23:30:00.000Z'),
    newId: sequentialIds('del'),
  });
  return { store, mailer, request };
}

describe('asking for data deletion', () => {
  it('records the request as received, due 30 days later', async () => {
    const { store, request } = setup();
    const answer = await request({ email: 'Someone@Gmail.com', name: 'Some One', details: 'All of it' });
    expect(answer).toEqual({ requestId: 'del-1', dueBy: '2026-03-12' });
    expect(store.all()).toEqual([
      {
        kind: 'deletion_request',
        requestId: 'del-1',
        email: 'someone@gmail.com',
        name: 'Some One',
        details: 'All of it',
        status: 'received',
        receivedAt: '2026-02-10T23:30:00.000Z',
        dueBy: '2026-03-12',
      },
    ]);
  });

  it('confirms to the address, with the request id and the deadline', async () => {
    const { mailer, request } = setup();
    await request({ email: 'someone@gmail.com' });
    expect(mailer.sent).toHaveLength(1);
    const [email] = mailer.sent;
    expect(email?.to).toBe('someone@gmail.com');
    expect(email?.subject).toContain('del-1');
    expect(email?.text).toContain('del-1');
    expect(email?.text).toContain('within 30 days, by 2026-03-12');
  });

  it('keeps the request when the confirmation email fails, and says so', async () => {
    const { store, mailer, request } = setup();
    mailer.failWith = new Error('SES throttled');
    const answer = await request({ email: 'someone@gmail.com' });
    expect(answer.requestId).toBe('del-1');
    expect(answer.confirmationError).toBe(mailer.failWith);
    expect(store.all()).toHaveLength(1);
  });

  it('counts the deadline in UTC days across month ends and leap years', () => {
    expect(dueDate(new Date('2028-02-01T00:00:00Z'))).toBe('2028-03-02');
    expect(dueDate(new Date('2026-12-15T12:00:00Z'))).toBe('2027-01-14');
  });

  it('escapes a name in the HTML of the confirmation', () => {
    const email = dataDeletionConfirmationEmail({
      to: 'a@b.example',
      requestId: 'r1',
      dueBy: '2026-01-01',
      name: '<script>x</script>',
    });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;');
  });
});
