import { useSearchParams } from 'react-router';
import {
  decodeVerificationCursor,
  type ListVerificationsQuery,
  type VerificationSort,
  type VerificationStatusFilter,
  verificationStatusFilter,
} from '#contracts/admin-verifications.ts';
import { paths } from '#web/config/paths.ts';

// What the review queue shows lives in the URL (ADR 0082): the status filter, a search, the order
// and the page's cursor, so a reload, a shared link and back/forward keep them. A value the list
// route would refuse is left out rather than sent.

export interface QueueQuery {
  status: VerificationStatusFilter;
  q?: string;
  sort?: VerificationSort;
  cursor?: string;
}

export function parseQueueQuery(params: URLSearchParams): QueueQuery {
  const status = verificationStatusFilter.safeParse(params.get('status') ?? 'pending');
  const q = (params.get('q') ?? '').trim();
  const cursor = params.get('cursor') ?? '';
  return {
    status: status.success ? status.data : 'pending',
    ...(q.length >= 2 && q.length <= 100 ? { q } : {}),
    ...(params.get('sort') === 'oldest' ? { sort: 'oldest' as const } : {}),
    ...(cursor && decodeVerificationCursor(cursor) ? { cursor } : {}),
  };
}

export function useQueueQuery(): QueueQuery {
  const [params] = useSearchParams();
  return parseQueueQuery(params);
}

/** The queue's address for a query; pending, the newest first and the first page keep the bare path. */
export function queueHref(query: QueueQuery): string {
  const params = new URLSearchParams();
  if (query.status !== 'pending') params.set('status', query.status);
  if (query.q) params.set('q', query.q);
  if (query.sort === 'oldest') params.set('sort', 'oldest');
  if (query.cursor) params.set('cursor', query.cursor);
  const search = params.toString();
  return search ? `${paths.adminVerification.path}?${search}` : paths.adminVerification.path;
}

/** The list route's query: the status always, the rest only when set. */
export function listQuery(query: QueueQuery): ListVerificationsQuery {
  return {
    status: query.status,
    ...(query.q ? { q: query.q } : {}),
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.cursor ? { cursor: query.cursor } : {}),
  };
}
