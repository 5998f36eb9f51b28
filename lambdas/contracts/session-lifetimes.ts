// How long a signed-in session lasts, in the browser and at the identity provider: the session rules
// (web/src/features/session, ADR 0024) read the first two, and the refresh token's lifetimes, which
// Auth0 enforces (infra/auth0/provision/desired.ts) and the local identity provider emulates
// (local/idp/provider.ts), follow from them, so a token cannot outlive the rules (ADR 0074).
// The post-login Action (lambdas/auth0-actions/post-login.cjs) imports nothing and repeats the
// maximum for an admin's second factor; a test holds it to this one.

const minute = 60;

/** A session ends this long after sign-in, whatever the user does. */
export const sessionMaximumSeconds = 60 * minute;

/** A session ends after this long without activity in a visible tab (or with no tab visible). */
export const sessionInactivitySeconds = 5 * minute;

/** The browser refreshes its tokens this often while the session lives. */
export const tokenRefreshEverySeconds = 5 * minute;

/**
 * Refresh tokens, rotated on every use. Absolute: the family, counted from sign-in, lasts no
 * longer than the session may. Idle: the inactivity rule's 5 minutes plus what a live session may
 * take between two refreshes beyond them (another tab waits 30 s for the last active one, and a
 * throttled timer may look up to 60 s late), rounded up to whole minutes. A browser that closed
 * without logging out leaves a token that dies 7 minutes after its last use.
 */
export const refreshTokenLifetimes = {
  absoluteSeconds: sessionMaximumSeconds,
  idleSeconds: sessionInactivitySeconds + 2 * minute,
} as const;
