import type { VerificationItem, VerificationStatusFilter } from '#contracts/admin-verifications.ts';
import { type KycStatus, kycStatuses } from '#contracts/kyc.ts';
import type { KycStore } from './ports.ts';

/** The admin queue: newest change first. `all` covers every status, `not_started` included. */
export function listVerifications(deps: { store: Pick<KycStore, 'listByStatus'> }) {
  return async (filter: VerificationStatusFilter): Promise<VerificationItem[]> => {
    const statuses: readonly KycStatus[] = filter === 'all' ? kycStatuses : [filter];
    const lists = await Promise.all(statuses.map((status) => deps.store.listByStatus(status)));
    return lists
      .flat()
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
      .map((record) => ({
        userId: record.userId,
        status: record.status,
        inquiryId: record.inquiryId,
        updatedAt: record.updatedAt,
        decidedBy: record.decidedBy,
      }));
  };
}
