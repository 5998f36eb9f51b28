import { describe, expect, it } from 'vitest';
import type { WaitlistEntry, WaitlistStore } from '#lambdas/domain/ports.ts';
import { joinWaitlist } from '#lambdas/domain/waitlist.ts';

class InMemoryWaitlist implements WaitlistStore {
  readonly entries = new Map<string, WaitlistEntry>();
  async addOnce(entry: WaitlistEntry) {
    if (this.entries.has(entry.email)) return 'exists' as const;
    this.entries.set(entry.email, entry);
    return 'added' as const;
  }
}

describe('joinWaitlist', () => {
  const clock = { now: () => new Date('2026-11-21T07:00:00Z') };

  it('stores the normalised address with the time it joined', async () => {
    const store = new InMemoryWaitlist();
    await expect(joinWaitlist({ store, clock })({ email: 'Ada@Example.COM' })).resolves.toEqual({
      added: true,
    });
    expect([...store.entries.values()]).toEqual([
      { email: 'ada@example.com', joinedAt: '2026-11-21T07:00:00.000Z' },
    ]);
  });

  it('keeps one entry when the same address joins twice in different case', async () => {
    const store = new InMemoryWaitlist();
    const join = joinWaitlist({ store, clock });
    await join({ email: 'ada@example.com' });
    await expect(join({ email: 'ADA@example.com' })).resolves.toEqual({ added: false });
    expect(store.entries.size).toBe(1);
  });
});
