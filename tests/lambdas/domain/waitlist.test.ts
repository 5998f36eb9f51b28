import { describe, expect, it } from 'vitest';
import type { SubmissionRecord, SubmissionStore } from '#lambdas/domain/submissions/ports.ts';
import { joinWaitlist } from '#lambdas/domain/waitlist.ts';

class InMemorySubmissions implements Pick<SubmissionStore, 'addOnce'> {
  readonly records = new Map<string, SubmissionRecord>();
  async addOnce(record: SubmissionRecord) {
    const key = record.kind === 'waitlist' ? `waitlist#${record.email}` : JSON.stringify(record);
    if (this.records.has(key)) return 'exists' as const;
    this.records.set(key, record);
    return 'added' as const;
  }
}

describe('joinWaitlist', () => {
  const clock = { now: () => new Date('2026-11-21T07:00:00Z') };
  const store = () => new InMemorySubmissions() as InMemorySubmissions & SubmissionStore;

  it('stores the normalised address with the time it joined', async () => {
    const submissions = store();
    await expect(joinWaitlist({ store: submissions, clock })({ email: 'Ada@Example.COM' })).resolves.toEqual({
      added: true,
    });
    expect([...submissions.records.values()]).toEqual([
      { kind: 'waitlist', email: 'ada@example.com', createdAt: '2026-11-21T07:00:00.000Z' },
    ]);
  });

  it('keeps one entry when the same address joins twice in different case', async () => {
    const submissions = store();
    const join = joinWaitlist({ store: submissions, clock });
    await join({ email: 'ada@example.com' });
    await expect(join({ email: 'ADA@example.com' })).resolves.toEqual({ added: false });
    expect(submissions.records.size).toBe(1);
  });
});
