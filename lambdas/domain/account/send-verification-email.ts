import { messageTemplates } from '#contracts/problem-messages.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import { RateLimitedError } from '#lambdas/domain/errors.ts';
import type { EventPublisher, RateLimiter, UserDirectory } from '#lambdas/domain/ports.ts';
import { spendSignedInWrite } from '#lambdas/domain/signed-in-limits.ts';

export const verificationEmailWindowSeconds = 60;

export type VerificationEmailOutcome = { outcome: 'queued' } | { outcome: 'already_verified' };

/**
 * POST /api/me/verification-email: only ever for the caller, at most one a minute. The send is
 * queued on the bus (ADR 0059): the person gets 202 at once, and the Management API call waits
 * for the tenant's quota there instead of failing them. Throws `RateLimitedError` within the minute.
 */
export function requestVerificationEmail(deps: { limiter: RateLimiter; events: EventPublisher }) {
  return async (caller: Pick<Caller, 'userId' | 'emailVerified'>): Promise<VerificationEmailOutcome> => {
    // The token says so (the screen refreshes it first): asking again after verifying must not
    // cost the person a minute, nor the tenant a call.
    if (caller.emailVerified) return { outcome: 'already_verified' };
    const limit = await deps.limiter.acquire(
      'verification-email',
      caller.userId,
      verificationEmailWindowSeconds,
    );
    if (!limit.allowed) {
      throw new RateLimitedError(
        'verification-email',
        limit.retryAfterSeconds,
        messageTemplates.verificationEmailTooSoon(limit.retryAfterSeconds),
      );
    }
    // And at most a day's worth (ADR 0072): one a minute is still 1,440 emails a day to a script.
    try {
      await spendSignedInWrite(deps.limiter, 'verification-email-daily', caller.userId);
    } catch (error) {
      // Nothing sent: this minute is not spent either.
      await deps.limiter.release('verification-email', caller.userId).catch(() => undefined);
      throw error;
    }
    try {
      await deps.events.publish([
        { detailType: 'VerificationEmailRequested', detail: { userId: caller.userId } },
      ]);
    } catch (error) {
      // Not queued (503 with Retry-After): the minute and the day's one are given back, so sending
      // again then works.
      await deps.limiter.release('verification-email', caller.userId).catch(() => undefined);
      await deps.limiter.release('verification-email-daily', caller.userId).catch(() => undefined);
      throw error;
    }
    return { outcome: 'queued' };
  };
}

export type VerificationEmailDelivery = 'sent' | 'user_missing';

/** The queued send: Auth0's verification-email job, retried by the bus while the quota is spent. */
export function deliverVerificationEmail(deps: { users: Pick<UserDirectory, 'sendVerificationEmail'> }) {
  return async (userId: string): Promise<VerificationEmailDelivery> =>
    // A user deleted since the request: nothing to send, nothing to retry.
    (await deps.users.sendVerificationEmail(userId)) ? 'sent' : 'user_missing';
}
