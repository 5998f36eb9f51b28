import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock, OnceMarker, RateLimiter, RateLimitResult } from '#lambdas/domain/ports.ts';
import { submissionKeyPrefixes } from '#lambdas/tables.ts';

// Conditional-put guards: a per-subject rate limit and a once-per-id marker.
//
// A fixed-window limiter of `limit` actions per window per subject, in the submissions table:
// `{pk:'RATE#<action>#<subject>', sk:'RATE', resetAtMs, used, expiresAt}`. Every step is a
// conditional write, so concurrent requests cannot overspend a window: the first action of a window
// puts a fresh item (only when no window is open), later ones add to `used` (only while the window
// is open and has room; a budget of several tries this first, so it costs one call inside a window); `release` gives one back when what it allowed did not happen. DynamoDB deletes expired items lazily (DynamoDB Local too, by a background sweep), so the
// conditions compare the window end itself. Items written before `used` existed count as full.

export const rateLimitKey = (action: string, subject: string) => ({
  pk: `${submissionKeyPrefixes.rateLimit}${action}#${subject}`,
  sk: 'RATE',
});

export class DynamoDbRateLimiter implements RateLimiter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async acquire(action: string, subject: string, windowSeconds: number, limit = 1): Promise<RateLimitResult> {
    const nowMs = this.clock.now().getTime();
    if (limit > 1) {
      // A budget of several is mostly spent inside an open window: one conditional update answers
      // that (and a full window, from the item it returns), so a signed-in write costs one call
      // (ADR 0072); only a window's first action also puts.
      const spent = await this.spend(action, subject, nowMs, limit);
      if (spent === true) return { allowed: true };
      if (spent.resetAtMs > nowMs) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((spent.resetAtMs - nowMs) / 1000)),
        };
      }
    }
    const resetAtMs = nowMs + windowSeconds * 1000;
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...rateLimitKey(action, subject),
            kind: 'rate-limit',
            resetAtMs,
            used: 1,
            // TTL clean-up, with an hour's slack (TTL deletion is not immediate anyway).
            expiresAt: Math.ceil(resetAtMs / 1000) + 3600,
          },
          // A window whose actions were all given back (`release`) is as good as none.
          ConditionExpression: 'attribute_not_exists(pk) OR resetAtMs <= :now OR used <= :none',
          ExpressionAttributeValues: { ':now': nowMs, ':none': 0 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { allowed: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const openUntil = Number(error.Item?.resetAtMs?.N ?? resetAtMs);
      const denied = {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((openUntil - nowMs) / 1000)),
      } as const;
      if (limit <= 1) return denied;
      // Another request opened the window meanwhile: spend in it.
      return (await this.spend(action, subject, nowMs, limit)) === true ? { allowed: true } : denied;
    }
  }

  async release(action: string, subject: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: rateLimitKey(action, subject),
          UpdateExpression: 'ADD used :minusOne',
          // Only an open window with an action to give back: never below zero, never a closed one.
          ConditionExpression: 'resetAtMs > :now AND used > :none',
          ExpressionAttributeValues: { ':now': this.clock.now().getTime(), ':none': 0, ':minusOne': -1 },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /**
   * One more action in the open window, if it has room; otherwise when the window it found ends
   * (0: no window, or one without `resetAtMs`).
   */
  private async spend(
    action: string,
    subject: string,
    nowMs: number,
    limit: number,
  ): Promise<true | { resetAtMs: number }> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: rateLimitKey(action, subject),
          UpdateExpression: 'ADD used :one',
          ConditionExpression: 'resetAtMs > :now AND used < :limit',
          ExpressionAttributeValues: { ':now': nowMs, ':limit': limit, ':one': 1 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException)
        return { resetAtMs: Number(error.Item?.resetAtMs?.N ?? 0) };
      throw error;
    }
  }
}

/**
 * `{pk:'<prefix>#<id>', sk:'<prefix>', state, claimedAtMs, expiresAt}`. A marker left `pending` by
 * an invocation that died mid-send may be taken again once it is older than `staleAfterMs` (longer
 * than the function timeout); an expired one (TTL not yet applied) counts as absent. No delete is
 * needed (the roles may not delete): release is an update.
 */
export class DynamoDbOnceMarker implements OnceMarker {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly prefix: string,
    private readonly clock: Clock,
    private readonly options: { ttlSeconds: number; staleAfterMs: number } = {
      ttlSeconds: 30 * 24 * 3600,
      staleAfterMs: 2 * 60 * 1000,
    },
  ) {}

  private key(id: string) {
    return { pk: `${this.prefix}#${id}`, sk: this.prefix };
  }

  async take(id: string): Promise<boolean> {
    const nowMs = this.clock.now().getTime();
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...this.key(id),
            kind: 'once-marker',
            state: 'pending',
            claimedAtMs: nowMs,
            expiresAt: Math.floor(nowMs / 1000) + this.options.ttlSeconds,
          },
          ConditionExpression:
            'attribute_not_exists(pk) OR expiresAt <= :nowSec OR #state = :released OR (#state = :pending AND claimedAtMs < :stale)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':nowSec': Math.floor(nowMs / 1000),
            ':released': 'released',
            ':pending': 'pending',
            ':stale': nowMs - this.options.staleAfterMs,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  complete(id: string): Promise<void> {
    return this.setState(id, 'done');
  }

  release(id: string): Promise<void> {
    return this.setState(id, 'released');
  }

  private async setState(id: string, state: 'done' | 'released'): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(id),
        UpdateExpression: 'SET #state = :state',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': state },
      }),
    );
  }
}
