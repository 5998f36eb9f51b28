import { type DataDeletionRequest, deletionDeadlineDays } from '#contracts/data-deletion.ts';
import { dataDeletionConfirmationEmail } from '../emails/data-deletion.ts';
import type { Clock, Mailer } from '../ports.ts';
import { normaliseEmail } from './normalise.ts';
import type { IdGenerator, SubmissionStore } from './ports.ts';

/** The UTC date `days` after `from`, as YYYY-MM-DD. */
export function dueDate(from: Date, days = deletionDeadlineDays): string {
  return new Date(from.getTime() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

export function requestDataDeletion(deps: {
  store: SubmissionStore;
  mailer: Mailer;
  clock: Clock;
  newId: IdGenerator;
}) {
  return async (
    request: DataDeletionRequest,
  ): Promise<{ requestId: string; dueBy: string; confirmationError?: unknown }> => {
    const received = deps.clock.now();
    const requestId = deps.newId();
    const dueBy = dueDate(received);
    const email = normaliseEmail(request.email);
    await deps.store.addOnce({
      kind: 'deletion_request',
      requestId,
      email,
      name: request.name || undefined,
      details: request.details || undefined,
      status: 'received',
      receivedAt: received.toISOString(),
      dueBy,
    });
    // Once stored, the request is received and the deadline runs: a failed confirmation email must
    // not turn that into an error the person would retry (and so file twice).
    try {
      await deps.mailer.send(
        dataDeletionConfirmationEmail({ to: email, requestId, dueBy, name: request.name }),
      );
    } catch (confirmationError) {
      return { requestId, dueBy, confirmationError };
    }
    return { requestId, dueBy };
  };
}
