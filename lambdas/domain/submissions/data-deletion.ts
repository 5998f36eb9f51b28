import { createHash, randomBytes } from 'node:crypto';
import type {
  DataDeletionRequest,
  OwnDataDeletionRequest,
  OwnDeletionRequestState,
} from '#contracts/data-deletion.ts';
import { type ApiLocale, defaultApiLocale } from '#contracts/locale.ts';
import { deletionConfirmationHours, deletionDeadlineDays } from '#contracts/retention.ts';
import type { Caller } from '../caller.ts';
import { requireVerifiedEmail } from '../caller.ts';
import { dataDeletionConfirmationEmail, dataDeletionReceiptEmail } from '../emails/data-deletion.ts';
import { mayEmailRecipient } from '../emails/recipient-limit.ts';
import {
  AccountNotFoundError,
  DeletionConfirmationInvalidError,
  DeletionNotCancellableError,
  DeletionRequestNotFoundError,
} from '../errors.ts';
import type { Clock, Mailer, RateLimiter, UserProfiles } from '../ports.ts';
import { withinSignedInLimit } from '../signed-in-limits.ts';
import { normaliseEmail } from './normalise.ts';
import type {
  DeletionConfirmations,
  DeletionRequestRecord,
  IdGenerator,
  OwnDeletionRequests,
  SubmissionStore,
} from './ports.ts';

// Data-deletion requests (GDPR Art. 17; ADR 0008, ADR 0033). A request in a public form's name
// proves nothing about who sent it, so it stays `unconfirmed` until someone with access to the
// inbox opens the emailed link; only then does the 30-day clock start and may the operator erase.

/** What every deletion request records, however it was filed (empty texts are left out). */
function deletionRequest(input: {
  requestId: string;
  email: string;
  name: string | undefined;
  details: string | undefined;
  received: Date;
}) {
  return {
    kind: 'deletion_request' as const,
    requestId: input.requestId,
    email: input.email,
    name: input.name || undefined,
    details: input.details || undefined,
    receivedAt: input.received.toISOString(),
  };
}

/** The UTC date `days` after `from`, as YYYY-MM-DD. */
export function dueDate(from: Date, days = deletionDeadlineDays): string {
  return new Date(from.getTime() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** An unconfirmed request is kept this long after its link expired, then the table's TTL removes it. */
const unconfirmedRetentionDays = 7;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const newSecret = () => randomBytes(32).toString('base64url');

export type DeletionRequestOutcome = 'emailed' | 'over_recipient_limit' | 'email_failed';

export function requestDataDeletion(deps: {
  store: SubmissionStore;
  mailer: Mailer;
  limiter: RateLimiter;
  clock: Clock;
  newId: IdGenerator;
  /** The web origin, for the link. */
  appUrl: string;
  newSecret?: () => string;
}) {
  return async (
    request: DataDeletionRequest,
    /** The request's language (`Accept-Language`, issue 28): the confirmation is written in it. */
    locale: ApiLocale = defaultApiLocale,
  ): Promise<{
    requestId: string;
    confirmBy: string;
    dueBy: string;
    outcome: DeletionRequestOutcome;
    confirmationError?: unknown;
  }> => {
    const received = deps.clock.now();
    const requestId = deps.newId();
    const token = `${requestId}.${(deps.newSecret ?? newSecret)()}`;
    const confirmBy = new Date(received.getTime() + deletionConfirmationHours * 3600 * 1000);
    const email = normaliseEmail(request.email);
    await deps.store.addOnce({
      ...deletionRequest({ requestId, email, name: request.name, details: request.details, received }),
      status: 'unconfirmed',
      confirmationTokenHash: hashToken(token),
      confirmBy: confirmBy.toISOString(),
      expiresAt: Math.ceil(confirmBy.getTime() / 1000) + unconfirmedRetentionDays * 24 * 3600,
    });
    const answer = { requestId, confirmBy: confirmBy.toISOString(), dueBy: dueDate(confirmBy) };
    // Over the limit the caller hears exactly what everyone hears; only the email is left out.
    if (!(await mayEmailRecipient(deps.limiter, 'deletion-confirmation-email', email))) {
      return { ...answer, outcome: 'over_recipient_limit' };
    }
    try {
      await deps.mailer.send(
        dataDeletionConfirmationEmail({
          to: email,
          requestId,
          appUrl: deps.appUrl,
          token,
          confirmBy: confirmBy.toISOString(),
          locale,
        }),
      );
    } catch (confirmationError) {
      // Asking again sends a new link; the stored request expires unconfirmed.
      return { ...answer, outcome: 'email_failed', confirmationError };
    }
    return { ...answer, outcome: 'emailed' };
  };
}

/** POST /api/data-deletion-requests/confirm: single use, before `confirmBy`, for the right token. */
export function confirmDataDeletion(deps: { requests: DeletionConfirmations; clock: Clock }) {
  return async (token: string): Promise<{ requestId: string; dueBy: string }> => {
    const requestId = token.slice(0, token.indexOf('.'));
    if (requestId === '') throw new DeletionConfirmationInvalidError();
    const now = deps.clock.now();
    const dueBy = dueDate(now);
    const confirmed = await deps.requests.confirm(requestId, {
      tokenHash: hashToken(token),
      now: now.toISOString(),
      dueBy,
    });
    if (!confirmed) throw new DeletionConfirmationInvalidError();
    return { requestId, dueBy };
  };
}

/**
 * POST /api/me/data-deletion-requests: the signed-in person's own address, confirmed by their
 * access token (the address comes from the account the token's `sub` names, never from the body).
 */
export function requestOwnDataDeletion(deps: {
  profiles: Pick<UserProfiles, 'get'>;
  requests: Pick<OwnDeletionRequests, 'pendingOf' | 'addOwn'>;
  mailer: Mailer;
  clock: Clock;
  newId: IdGenerator;
  /** The per-user limit of this route (ADR 0072). */
  limiter: RateLimiter;
}) {
  return async (
    caller: Pick<Caller, 'userId' | 'emailVerified' | 'claims'>,
    request: OwnDataDeletionRequest,
    /** The request's language (`Accept-Language`, issue 28), the person's choice as they ask. */
    locale: ApiLocale = defaultApiLocale,
  ): Promise<{ requestId: string; dueBy: string; alreadyPending?: true; receiptError?: unknown }> => {
    // A token proves the inbox only once the account's address is verified.
    requireVerifiedEmail(caller);
    // The account's address from the profile, else the token's (both the account's own, never
    // the body's): no Management API call on a user's request (ADR 0059).
    const lookup = await deps.profiles.get(caller.userId);
    if (lookup?.kind === 'erased') throw new AccountNotFoundError();
    const user = {
      email: lookup?.profile.email || caller.claims.email || '',
      name: lookup?.profile.name || caller.claims.name || '',
    };
    if (!user.email) throw new AccountNotFoundError();
    // One pending request per person (ADR 0076): asking again answers the pending one, spends
    // nothing of the limit and sends no second receipt.
    const pending = await deps.requests.pendingOf(caller.userId);
    if (pending) return { ...answerOf(pending), alreadyPending: true };
    return withinSignedInLimit(deps.limiter, 'own-deletion-request', caller.userId, async () => {
      const now = deps.clock.now();
      const requestId = deps.newId();
      const dueBy = dueDate(now);
      const email = normaliseEmail(user.email);
      const stored = await deps.requests.addOwn({
        ...deletionRequest({ requestId, email, name: user.name, details: request.details, received: now }),
        status: 'received',
        confirmedAt: now.toISOString(),
        confirmedBy: 'access_token',
        dueBy,
        userId: caller.userId,
      });
      // Another request of the same person landed first: that one stands.
      if (stored.requestId !== requestId) return { ...answerOf(stored), alreadyPending: true };
      // Once stored, the request stands and the deadline runs: a failed receipt must not turn that
      // into an error the person would retry (and so file twice).
      try {
        await deps.mailer.send(
          dataDeletionReceiptEmail({ to: email, requestId, dueBy, name: user.name, locale }),
        );
      } catch (receiptError) {
        return { requestId, dueBy, receiptError };
      }
      return { requestId, dueBy };
    });
  };
}

const answerOf = (request: DeletionRequestRecord) => ({
  requestId: request.requestId,
  dueBy: request.dueBy ?? dueDate(new Date(request.receivedAt)),
});

/** The person's own request as GET /api/me shows it; null when none is pending. */
export function ownDeletionRequestState(
  request: DeletionRequestRecord | undefined,
): OwnDeletionRequestState | null {
  if (!request || (request.status !== 'received' && request.status !== 'in_progress')) return null;
  return {
    ...answerOf(request),
    status: request.status,
    requestedAt: request.receivedAt,
    cancellable: request.status === 'received',
  };
}

/**
 * DELETE /api/me/data-deletion-requests/{requestId}: the person withdraws their own request while
 * the operator has not started carrying it out (ADR 0076); 404 for any id that is not their
 * pending request (another person's reads the same), 409 once it is being carried out.
 */
export function cancelOwnDataDeletion(deps: {
  requests: Pick<OwnDeletionRequests, 'cancelOwn'>;
  clock: Clock;
}) {
  return async (caller: Pick<Caller, 'userId'>, requestId: string): Promise<void> => {
    const outcome = await deps.requests.cancelOwn(caller.userId, requestId, deps.clock.now().toISOString());
    if (outcome === 'not_found') throw new DeletionRequestNotFoundError();
    if (outcome === 'not_cancellable') throw new DeletionNotCancellableError();
  };
}
