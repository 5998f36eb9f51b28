// The capabilities use cases need. Adapters in lambdas/adapters implement them with real SDK
// clients; tests use in-memory fakes. The domain imports no SDK.

export interface Clock {
  now(): Date;
}

export interface WaitlistEntry {
  email: string;
  joinedAt: string;
}

export interface WaitlistStore {
  /** Stores the entry unless the address is already on the list; says which happened. */
  addOnce(entry: WaitlistEntry): Promise<'added' | 'exists'>;
}

export const systemClock: Clock = { now: () => new Date() };
