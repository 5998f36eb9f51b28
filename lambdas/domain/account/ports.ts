export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** At most `limit` (default 1) `action`s per window per subject; the window opens with the first. */
export interface RateLimiter {
  acquire(action: string, subject: string, windowSeconds: number, limit?: number): Promise<RateLimitResult>;
  /**
   * Gives back one action of the open window: what it allowed did not happen (the send could not be
   * queued), so the person is not told to wait for something they never got.
   */
  release(action: string, subject: string): Promise<void>;
}

/** Marks that an event's side effect (an email) happened, so a redelivery does not repeat it. */
export interface OnceMarker {
  /** True when this call took the marker; false when it was taken already (done or in progress). */
  take(id: string): Promise<boolean>;
  /** The side effect happened. */
  complete(id: string): Promise<void>;
  /** The side effect failed: let a retry take the marker again. */
  release(id: string): Promise<void>;
}
