import { useCallback, useEffect, useRef, useState } from 'react';
import type { VerificationItem } from '#contracts/admin-verifications.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import { fetchVerifications } from '#web/features/admin/api/verifications.ts';
import { listQuery, type QueueQuery, queueHref } from '#web/features/admin/lib/queue-query.ts';
import type { ApiClient } from '#web/lib/api-client.ts';
import { useResource } from '#web/lib/use-resource.ts';

// The review queue's data: one page of one query through `useResource`, kept current by a gentle
// poll while the tab is visible, with the admin's own decisions applied at once (before the
// re-fetch that confirms them answers).

/** Other admins and Persona change the queue too; a reviewer should not need to reload. */
export const queuePollIntervalMs = 30_000;

interface Loaded {
  /** The query's address: the page it is. */
  key: string;
  items: VerificationItem[];
  truncated: boolean;
  nextCursor: string | null;
  /** Which load this is: loads started after a decision already include it. */
  sequence: number;
  loadedAt: Date;
}

interface Decided {
  userId: string;
  status: KycStatus;
  /** The newest load started before the decision; later loads reflect it. */
  afterSequence: number;
}

export type QueueView =
  | { state: 'loading' }
  | { state: 'failed'; error: unknown }
  | {
      state: 'ready';
      items: VerificationItem[];
      truncated: boolean;
      /** The next page's cursor; null on the last page. */
      nextCursor: string | null;
      loadedAt: Date;
      /** The last refresh failed; the items are the ones loaded before. */
      stale: boolean;
    };

export function useVerificationQueue(
  api: ApiClient,
  query: QueueQuery,
  options: {
    /** Asked at each poll: e.g. a reason is being written, so the list must not change under it. */
    paused: () => boolean;
  },
) {
  const sequence = useRef(0);
  const key = queueHref(query);
  const filter = query.status;
  const resource = useResource<Loaded>(`admin-verifications:${key}`, async (signal) => {
    const mine = ++sequence.current;
    const answer = await fetchVerifications(api, listQuery(query), signal);
    return { key, ...answer, sequence: mine, loadedAt: new Date() };
  });
  const { reload } = resource;
  const [decided, setDecided] = useState<Decided[]>([]);

  // Kept in a ref, so a new callback every render does not restart the interval.
  const paused = useRef(options.paused);
  paused.current = options.paused;
  useEffect(() => {
    const poll = () => {
      if (document.visibilityState === 'visible' && !paused.current()) reload();
    };
    const timer = setInterval(poll, queuePollIntervalMs);
    document.addEventListener('visibilitychange', poll);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', poll);
    };
  }, [reload]);

  const recordDecision = useCallback((userId: string, status: KycStatus) => {
    setDecided((current) => [
      ...current.filter((entry) => entry.userId !== userId),
      { userId, status, afterSequence: sequence.current },
    ]);
  }, []);

  // The previous page's list stays in the resource while the new one loads: never show it.
  const loaded = resource.data?.key === key ? resource.data : undefined;
  let view: QueueView;
  if (loaded) {
    const items = loaded.items.flatMap((item) => {
      const decision = decided.find(
        (entry) => entry.userId === item.userId && entry.afterSequence >= loaded.sequence,
      );
      if (!decision) return [item];
      // Decided here since this list was loaded: it leaves a filter it no longer matches.
      if (filter !== 'all' && decision.status !== filter) return [];
      return [{ ...item, status: decision.status }];
    });
    view = {
      state: 'ready',
      items,
      truncated: loaded.truncated,
      nextCursor: loaded.nextCursor,
      loadedAt: loaded.loadedAt,
      stale: resource.state === 'failed',
    };
  } else if (resource.state === 'failed') {
    view = { state: 'failed', error: resource.error };
  } else {
    view = { state: 'loading' };
  }

  return { view, reload, recordDecision };
}
