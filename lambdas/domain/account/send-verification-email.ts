import { AccountNotFoundError, RateLimitedError } from '#lambdas/domain/errors.ts';
import type { UserDirectory } from '#lambdas/domain/ports.ts';
import type { RateLimiter } from './ports.ts';

export const verificationEmailWindowSeconds = 60;

export type VerificationEmailOutcome = { outcome: 'sent' } | { outcome: 'already_verified' };

/**
 * POST /api/me/verification-email: only ever for the caller, at most one a minute. Throws
 * `AccountNotFoundError` for a deleted account and `RateLimitedError` within the minute.
 */
export function sendVerificationEmail(deps: {
  users: Pick<UserDirectory, 'get' | 'sendVerificationEmail'>;
  limiter: RateLimiter;
}) {
  return async (userId: string): Promise<VerificationEmailOutcome> => {
    const user = await deps.users.get(userId);
    if (!user) throw new AccountNotFoundError();
    // Checked before the limiter: asking again after verifying must not cost the person a minute.
    if (user.emailVerified) return { outcome: 'already_verified' };
    const limit = await deps.limiter.acquire('verification-email', userId, verificationEmailWindowSeconds);
    if (!limit.allowed) {
      throw new RateLimitedError(
        'verification-email',
        limit.retryAfterSeconds,
        'A verification email was sent less than a minute ago. Check your inbox, or try again shortly.',
      );
    }
    await deps.users.sendVerificationEmail(userId);
    return { outcome: 'sent' };
  };
}
