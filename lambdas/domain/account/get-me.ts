import { decisionReasonOf, maxVerificationAttempts } from '#contracts/kyc-reasons.ts';
import type { MeResponse } from '#contracts/me.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import { consentWithdrawn, currentConsent } from '#lambdas/domain/consent/list-my-consents.ts';
import { OrganizationMembershipEndedError } from '#lambdas/domain/errors.ts';
import type { ConsentLedger, KycStateReader, UserProfiles } from '#lambdas/domain/ports.ts';
import { ownDeletionRequestState } from '#lambdas/domain/submissions/data-deletion.ts';
import type { OwnDeletionRequests } from '#lambdas/domain/submissions/ports.ts';

// GET /api/me: the server's truth about the caller, from DynamoDB and the caller's token only: no
// Management API call (Auth0's quota is one per tenant, 2 requests/s on the Free plan; ADR 0059).
// Three reads: the profile (with the registration and the pointer to a pending deletion request,
// one BatchGetItem), the KYC state and the consent ledger; a fourth, the request itself, only while
// one is pending (ADR 0076). The KYC table is the truth for the status (written before any event is
// published); the token's claims, up to a token's lifetime old, fill in only what the product
// holds nothing of (an account created outside registration).

export interface GetMeDeps {
  profiles: Pick<UserProfiles, 'get'>;
  kyc: KycStateReader;
  ledger: Pick<ConsentLedger, 'listBySubject'>;
  /** The person's own pending deletion request, shown on the account page (ADR 0076). */
  deletions: Pick<OwnDeletionRequests, 'pendingById' | 'pendingOf'>;
}

/** Undefined for an account the product erased (its token may still be valid for a while). */
export function getMe(deps: GetMeDeps) {
  return async (caller: Caller): Promise<MeResponse | undefined> => {
    const [lookup, kyc, records] = await Promise.all([
      deps.profiles.get(caller.userId),
      deps.kyc.getState(caller.userId),
      deps.ledger.listBySubject(caller.userId),
    ]);
    if (lookup?.kind === 'erased') return undefined;
    // Removed from the organization by its admin (ADR 0084): the session ends at this check.
    if (lookup?.profile.organizationRemovedAt) throw new OrganizationMembershipEndedError();
    // The pointer came with the profile; an account without one (made outside registration, which
    // the post-login Action no longer lets in) is looked up on its own.
    const pendingId = lookup?.pendingDeletionRequestId;
    const deletion =
      lookup === undefined
        ? await deps.deletions.pendingOf(caller.userId)
        : pendingId
          ? await deps.deletions.pendingById(caller.userId, pendingId)
          : undefined;
    const profile = lookup?.profile;
    const { claims } = caller;
    const kycStatus = kyc?.status ?? profile?.auth0Kyc?.status ?? claims.kycStatus ?? 'not_started';
    const decided = kycStatus === 'approved' || kycStatus === 'rejected';
    return {
      userId: caller.userId,
      email: profile?.email || claims.email || '',
      // The token says whether the address is verified: "I've verified my email" refreshes it.
      emailVerified: caller.emailVerified,
      name: profile?.name || claims.name || '',
      organizationName: profile?.organizationName ?? null,
      organizationType: profile?.organizationType ?? claims.organizationType ?? null,
      organizationId: profile?.organizationId ?? null,
      organizationRole: profile?.organizationId ? profile.organizationRole : null,
      role: caller.role,
      kycStatus,
      consentRecorded: currentConsent(records, 'identity_verification') !== undefined,
      // From the same ledger read: no fourth call (ADR 0075, amended).
      consentWithdrawn: consentWithdrawn(records, 'identity_verification'),
      kycReason: decided ? decisionReasonOf(kyc?.reasonCode) : null,
      kycNewAttemptAllowed: kycStatus === 'rejected' && kyc?.newAttemptAllowed === true,
      kycAttempts: { used: kyc?.attempt ?? 0, max: maxVerificationAttempts },
      deletionRequest: ownDeletionRequestState(deletion),
    };
  };
}
