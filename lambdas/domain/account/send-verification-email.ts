import type { UserDirectory } from '#lambdas/domain/ports.ts';
import type { RateLimiter } from './ports.ts';

export const verificationEmailWindowSeconds = 60;

export type VerificationEmailOutcome =
  | { outcome: 'sent' }
  | { outcome: 'already_verified' }
  | { outcome: 'rate_limited'; retryAfterSeconds: number }
  | { outcome: 'user_missing' };

/** POST /api/me/verification-email: only ever for the caller, at most one a minute. */
export function sendVerificationEmail(deps: {
  users: Pick<UserDirectory, 'get' | 'sendVerificationEmail'>;
  limiter: RateLimiter;
}) {
  return async (userId: string): Promise<VerificationEmailOutcome> => {
    const user = await deps.users.get(userId);
    if (!user) return { outcome: 'user_missing' };
    // Checked before the limiter: asking again after verifying must not cost the person a minute.
    if (user.emailVerified) return { outcome: 'already_verified' };
    const limit = await deps.limiter.acquire('verification-email', userId, verificationEmailWindowSeconds);
    if (!limit.allowed) return { outcome: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
    await deps.users.sendVerificationEmail(userId);
    return { outcome: 'sent' };
  };
}
