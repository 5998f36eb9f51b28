import type { WaitlistRequest } from '#contracts/waitlist.ts';
import type { Clock, WaitlistStore } from './ports.ts';

/** Normalised form used as the identity of an address (domains are case-insensitive; so, in practice, are mailboxes). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function joinWaitlist(deps: { store: WaitlistStore; clock: Clock }) {
  return async (request: WaitlistRequest): Promise<{ added: boolean }> => {
    const outcome = await deps.store.addOnce({
      email: normaliseEmail(request.email),
      joinedAt: deps.clock.now().toISOString(),
    });
    // Joining twice is not an error: the caller learns nothing about who else is on the list.
    return { added: outcome === 'added' };
  };
}
