import type { ListVerificationsResponse, VerificationItem } from '#contracts/admin-verifications.ts';

/**
 * Every verification of a filter, page after page (the queue answers 25 at a time, newest change
 * first: ADR 0082), so a test finds its person however many others the shared stack holds.
 */
export async function listAllVerifications(
  call: (path: string) => Promise<Response>,
  status: 'pending' | 'approved' | 'rejected' | 'all',
): Promise<VerificationItem[]> {
  const items: VerificationItem[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 400; page++) {
    const path = `/api/admin/verifications?status=${status}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await call(path);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    const body = (await response.json()) as ListVerificationsResponse;
    items.push(...body.items);
    cursor = body.nextCursor;
    if (!cursor) return items;
  }
  throw new Error(`more than 400 pages of ${status} verifications`);
}
