import type { Clock, EventPublisher } from '../ports.ts';
import type { KycOutbox, OutboxEntry } from './ports.ts';

// The second half of the transactional outbox: the status change and its outbox item are already
// durable; publishing may fail and is retried by the relay (relay-kyc-outbox, every minute).
// Delivery is therefore at least once: the targets are idempotent.

export type PublishResult = { published: true } | { published: false; error: unknown };

export async function publishOutboxEntry(
  deps: { store: Pick<KycOutbox, 'markPublished'>; events: EventPublisher; clock: Clock },
  entry: OutboxEntry,
): Promise<PublishResult> {
  try {
    // The outbox id names the change: every publish of it (now, or by the relay) carries the same.
    const detail = { ...entry.event, changeId: entry.id };
    await deps.events.publish([{ detailType: 'KycStatusChanged', detail }]);
  } catch (error) {
    return { published: false, error };
  }
  try {
    await deps.store.markPublished(entry.id, deps.clock.now());
  } catch (error) {
    // Published but not marked: the relay publishes it again, which the targets tolerate.
    return { published: false, error };
  }
  return { published: true };
}

/** Publishes every unpublished outbox item, oldest first; reports how many failed. */
export function relayOutbox(deps: { store: KycOutbox; events: EventPublisher; clock: Clock }) {
  return async (limit = 100): Promise<{ published: number; failed: number; errors: unknown[] }> => {
    const entries = await deps.store.listUnpublished(limit);
    let published = 0;
    const errors: unknown[] = [];
    for (const entry of entries) {
      const result = await publishOutboxEntry(deps, entry);
      if (result.published) published += 1;
      else errors.push(result.error);
    }
    return { published, failed: errors.length, errors };
  };
}
