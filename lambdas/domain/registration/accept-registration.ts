import type { RegistrationRequest } from '#contracts/registration.ts';
import type { Clock, EventPublisher } from '#lambdas/domain/ports.ts';
import { normaliseEmail } from '#lambdas/domain/submissions/normalise.ts';
import type { IdGenerator } from '#lambdas/domain/submissions/ports.ts';
import type { RegistrationStore, RequestContext } from './ports.ts';

// POST /api/registrations as a use case (issue 10, finding 9; ADR 0033). The answer must not tell an
// address with an account from a new one, in its body or in its timing, so the request path does
// the same work for both: validate (in the HTTP layer), store the request, publish its id. The
// account work (register-organization.ts) runs in the ProcessRegistration event target, with
// EventBridge's retries and dead-letter queue.

/** Long enough for every EventBridge retry (24 h) and a replay from the dead-letter queue. */
export const registrationRequestTtlDays = 7;

export type AcceptOutcome = { outcome: 'honeypot' } | { outcome: 'accepted'; registrationId: string };

export function acceptRegistration(deps: {
  store: Pick<RegistrationStore, 'saveRequest'>;
  events: EventPublisher;
  clock: Clock;
  newId: IdGenerator;
}) {
  return async (request: RegistrationRequest, context: RequestContext): Promise<AcceptOutcome> => {
    // Bots fill every field; people never see this one. Same answer, nothing stored or sent.
    if (request.website !== undefined && request.website.trim() !== '') return { outcome: 'honeypot' };
    const { website: _honeypot, ...form } = request;
    const now = deps.clock.now();
    const registrationId = deps.newId();
    await deps.store.saveRequest({
      registrationId,
      email: normaliseEmail(request.responsibleEmail),
      request: form,
      context,
      receivedAt: now.toISOString(),
      expiresAt: Math.ceil(now.getTime() / 1000) + registrationRequestTtlDays * 24 * 3600,
    });
    await deps.events.publish([{ detailType: 'RegistrationRequested', detail: { registrationId } }]);
    return { outcome: 'accepted', registrationId };
  };
}
