import { decisionReasonOf, maxVerificationAttempts } from '#contracts/kyc-reasons.ts';
import type { MeResponse } from '#contracts/me.ts';
import { currentConsent } from '#lambdas/domain/consent/list-my-consents.ts';
import type { ConsentLedger, KycStateReader, UserDirectory } from '#lambdas/domain/ports.ts';
import type { RegistrationStore } from '#lambdas/domain/registration/ports.ts';

// GET /api/me: the server's truth about the caller. The token's claims may be an hour old; the
// KYC table is the source of truth for the status (it is written before any event is published),
// app_metadata's copy is used only for accounts the KYC table has never seen.

export interface GetMeDeps {
  users: Pick<UserDirectory, 'get'>;
  kyc: KycStateReader;
  ledger: Pick<ConsentLedger, 'listBySubject'>;
  registrations: Pick<RegistrationStore, 'getRegistration'>;
}

export function getMe(deps: GetMeDeps) {
  return async (userId: string): Promise<MeResponse | undefined> => {
    const [user, kyc, records, registration] = await Promise.all([
      deps.users.get(userId),
      deps.kyc.getState(userId),
      deps.ledger.listBySubject(userId),
      deps.registrations.getRegistration(userId),
    ]);
    if (!user) return undefined;
    const kycStatus = kyc?.status ?? user.appMetadata.kyc_status ?? 'not_started';
    const decided = kycStatus === 'approved' || kycStatus === 'rejected';
    return {
      userId: user.userId,
      email: user.email,
      emailVerified: user.emailVerified,
      name: user.name,
      organizationName: registration?.organizationName ?? null,
      organizationType: registration?.organizationType ?? user.appMetadata.organization_type ?? null,
      role: user.appMetadata.role ?? 'user',
      kycStatus,
      consentRecorded: currentConsent(records, 'identity_verification') !== undefined,
      kycReason: decided ? decisionReasonOf(kyc?.reasonCode) : null,
      kycNewAttemptAllowed: kycStatus === 'rejected' && kyc?.newAttemptAllowed === true,
      kycAttempts: { used: kyc?.attempt ?? 0, max: maxVerificationAttempts },
    };
  };
}
