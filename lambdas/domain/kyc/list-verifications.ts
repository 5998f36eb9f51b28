import {
  decodeVerificationCursor,
  encodeVerificationCursor,
  type ListVerificationsResponse,
  type VerificationItem,
  type VerificationSort,
  type VerificationStatusFilter,
  verificationHistoryLimit,
  verificationPageSize,
  verificationSearchLimit,
} from '#contracts/admin-verifications.ts';
import { type KycStatus, kycStatuses } from '#contracts/kyc.ts';
import { isDecisionReasonCode } from '#contracts/kyc-reasons.ts';
import type { RegistrationRecord } from '../registration/ports.ts';
import { isSubmitted } from './decide-verification.ts';
import type { KycAdminQueue, KycRecord, RegistrationLookup } from './ports.ts';

export interface ListVerificationsDeps {
  store: KycAdminQueue;
  registrations: RegistrationLookup;
}

/** What the list route passes on from its query (already checked by the contract). */
export interface ListVerificationsInput {
  status?: VerificationStatusFilter;
  sort?: VerificationSort;
  q?: string;
  cursor?: string;
}

type Order = 'newest' | 'oldest';

/** The queue's total order: change time, then user id (both descending for `newest`). */
const compareIn = (order: Order) => (a: KycRecord, b: KycRecord) => {
  const byTime = a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : 0;
  const byUser = a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
  const ascending = byTime !== 0 ? byTime : byUser;
  return order === 'newest' ? -ascending : ascending;
};

const cursorOf = (record: KycRecord) =>
  encodeVerificationCursor({ updatedAt: record.updatedAt, userId: record.userId });

/** A search matches a part of the organization's name or of the email, ignoring case. */
function matches(registration: RegistrationRecord | undefined, needle: string): boolean {
  if (!registration) return false;
  return (
    registration.organizationName.toLowerCase().includes(needle) ||
    registration.email.toLowerCase().includes(needle)
  );
}

/**
 * The admin queue (ADR 0082), one page at a time: `verificationPageSize` items in the order asked
 * (newest change first by default), each with the user's organization (from the registration) and
 * its transition history; `nextCursor` continues after the page's last item. `all` covers every
 * status, `not_started` included, merged in the same order.
 *
 * Without a search, a page reads `pageSize + 1` items of each status from the index after the cursor,
 * then the registrations and histories of the listed items only. A search needs the registrations
 * (the organization and email live there): it reads up to `verificationSearchLimit` items of the
 * filter after the cursor, their registrations in batches of 100, and keeps the matches; when it
 * stopped at the limit, `truncated` says so and `nextCursor` continues the search from there.
 */
export function listVerifications(deps: ListVerificationsDeps) {
  return async (input: ListVerificationsInput = {}): Promise<ListVerificationsResponse> => {
    const filter = input.status ?? 'pending';
    const order: Order = input.sort ?? 'newest';
    const after = input.cursor === undefined ? undefined : decodeVerificationCursor(input.cursor);
    const needle = input.q?.trim().toLowerCase();
    const searching = needle !== undefined && needle !== '';
    const statuses: readonly KycStatus[] = filter === 'all' ? kycStatuses : [filter];
    const limit = searching ? verificationSearchLimit : verificationPageSize;
    const compare = compareIn(order);

    const lists = await Promise.all(
      statuses.map((status) =>
        deps.store.listByStatus(status, { order, ...(after ? { after } : {}), limit: limit + 1 }),
      ),
    );
    let merged = lists.flat().sort(compare);
    // A search that read a status only up to its limit saw nothing after that status's last item,
    // so it lists nothing after it (from that status or any other) and says it stopped there. (A
    // page without a search reads one more item of each status than it lists: enough.)
    let searchedTo: KycRecord | undefined;
    for (const list of searching ? lists : []) {
      if (list.length <= limit) continue;
      const last = [...list].sort(compare)[limit - 1];
      if (last && (!searchedTo || compare(last, searchedTo) < 0)) searchedTo = last;
    }
    if (searchedTo) {
      const boundary = searchedTo;
      merged = merged.filter((record) => compare(record, boundary) <= 0);
    }

    let page: KycRecord[];
    let nextCursor: string | null;
    let truncated = false;
    let registrations: Map<string, RegistrationRecord>;
    if (searching) {
      const all = await deps.registrations.getRegistrations(merged.map((record) => record.userId));
      const found = merged.filter((record) => matches(all.get(record.userId), needle));
      page = found.slice(0, verificationPageSize);
      const last = page[page.length - 1];
      if (found.length > verificationPageSize && last) nextCursor = cursorOf(last);
      else if (searchedTo) nextCursor = cursorOf(searchedTo);
      else nextCursor = null;
      truncated = searchedTo !== undefined;
      registrations = all;
    } else {
      page = merged.slice(0, verificationPageSize);
      const last = page[page.length - 1];
      nextCursor = merged.length > verificationPageSize && last ? cursorOf(last) : null;
      registrations = new Map();
    }

    if (page.length === 0) return { items: [], nextCursor, truncated };

    const userIds = page.map((record) => record.userId);
    const [pageRegistrations, histories] = await Promise.all([
      searching ? Promise.resolve(registrations) : deps.registrations.getRegistrations(userIds),
      deps.store.listHistories(userIds, verificationHistoryLimit),
    ]);
    const records = page;
    const items = records.map((record): VerificationItem => {
      const registration = pageRegistrations.get(record.userId);
      return {
        userId: record.userId,
        status: record.status,
        inquiryId: record.inquiryId,
        updatedAt: record.updatedAt,
        decidedBy: record.decidedBy,
        reasonCode: isDecisionReasonCode(record.reasonCode) ? record.reasonCode : null,
        submitted: isSubmitted(record),
        attempt: record.attempt,
        newAttemptAllowed: record.newAttemptAllowed,
        email: registration?.email ?? null,
        name: registration?.responsibleName ?? null,
        organizationName: registration?.organizationName ?? null,
        organizationUrl: registration?.organizationUrl ?? null,
        organizationType: registration?.organizationType ?? null,
        // A proposal counts only on the status it was made on (a later change makes it moot).
        proposal:
          record.proposal &&
          record.proposal.fromStatus === record.status &&
          isDecisionReasonCode(record.proposal.reasonCode)
            ? {
                decision: record.proposal.decision,
                reasonCode: record.proposal.reasonCode,
                adminId: record.proposal.adminId,
                at: record.proposal.at,
              }
            : null,
        flaggedChecks: record.flaggedChecks ?? [],
        history: (histories.get(record.userId) ?? []).map((entry) => ({
          status: entry.to,
          previousStatus: entry.from,
          decidedBy: entry.by,
          adminId: entry.by === 'admin' ? entry.actorId : null,
          reason: entry.reason,
          reasonCode: isDecisionReasonCode(entry.reasonCode) ? entry.reasonCode : null,
          action: entry.action,
          at: entry.at,
        })),
      };
    });
    return { items, nextCursor, truncated };
  };
}
