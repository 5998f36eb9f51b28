import type { KycStatusChanged } from '#contracts/events.ts';
import { kycChannelPath } from '#contracts/kyc-channel.ts';
import type { KycDecisionPush } from '#contracts/kyc-decision-push.ts';

// A status change, pushed to the person's open status screens (ADR 0060). The push carries no
// more than `GET /api/me` shows (the status and when it changed); the screen asks for the rest.
// Delivery is at least once and the screens only refresh on it, so a repeated push is harmless.

/** Publishes events to one channel of the realtime API (AppSync Events' HTTP publish). */
export interface RealtimePublisher {
  publish(channel: string, events: readonly unknown[]): Promise<void>;
}

export type PushOutcome = 'published' | 'no_channel';

export function pushKycDecision(deps: { realtime: RealtimePublisher }) {
  return async (change: KycStatusChanged): Promise<PushOutcome> => {
    const channel = kycChannelPath(change.userId);
    // A user id the channel encoding cannot carry: that person's screen polls (and says so in the log).
    if (channel === null) return 'no_channel';
    const push: KycDecisionPush = { status: change.status, occurredAt: change.occurredAt };
    await deps.realtime.publish(channel, [push]);
    return 'published';
  };
}
