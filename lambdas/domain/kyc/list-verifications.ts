import {
  type ListVerificationsResponse,
  type VerificationItem,
  type VerificationStatusFilter,
  verificationHistoryLimit,
  verificationListLimit,
} from '#contracts/admin-verifications.ts';
import { type KycStatus, kycStatuses } from '#contracts/kyc.ts';
import { isDecisionReasonCode } from '#contracts/kyc-reasons.ts';
import { isSubmitted } from './decide-verification.ts';
import type { KycAdminQueue, KycRecord, RegistrationLookup } from './ports.ts';

export interface ListVerificationsDeps {
  store: KycAdminQueue;
  registrations: RegistrationLookup;
}

const newestFirst = (a: KycRecord, b: KycRecord) =>
  a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0;

/**
 * The admin queue: newest change first, each item with the user's organization (from the
 * registration) and its transition history. `all` covers every status, `not_started` included.
 * The registrations and histories are read only for the items listed, all at once.
 */
export function listVerifications(deps: ListVerificationsDeps) {
  return async (filter: VerificationStatusFilter): Promise<ListVerificationsResponse> => {
    const statuses: readonly KycStatus[] = filter === 'all' ? kycStatuses : [filter];
    const lists = await Promise.all(statuses.map((status) => deps.store.listByStatus(status)));
    const merged = lists.flat().sort(newestFirst);
    const records = merged.slice(0, verificationListLimit);
    // A full page from the index may have more behind it.
    const truncated =
      merged.length > verificationListLimit || lists.some((list) => list.length >= verificationListLimit);

    if (records.length === 0) return { items: [], truncated };

    const userIds = records.map((record) => record.userId);
    const [registrations, histories] = await Promise.all([
      deps.registrations.getRegistrations(userIds),
      deps.store.listHistories(userIds, verificationHistoryLimit),
    ]);

    const items = records.map((record): VerificationItem => {
      const registration = registrations.get(record.userId);
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
    return { items, truncated };
  };
}
