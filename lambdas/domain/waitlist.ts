import type { WaitlistRequest } from '#contracts/waitlist.ts';
import type { Clock } from './ports.ts';
import { normaliseEmail } from './submissions/normalise.ts';
import type { SubmissionStore } from './submissions/ports.ts';

export function joinWaitlist(deps: { store: SubmissionStore; clock: Clock }) {
  return async (request: WaitlistRequest): Promise<{ added: boolean }> => {
    const outcome = await deps.store.addOnce({
      kind: 'waitlist',
      email: normaliseEmail(request.email),
      createdAt: deps.clock.now().toISOString(),
    });
    // Joining twice is not an error: the caller learns nothing about who else is on the list.
    return { added: outcome === 'added' };
  };
}
