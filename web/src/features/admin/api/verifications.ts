import {
  type VerificationAuditTrailResponse,
  verificationAuditTrailResponse,
} from '#contracts/admin-audit.ts';
import {
  type ListVerificationsQuery,
  type ListVerificationsResponse,
  listVerificationsResponse,
  type NewAttemptRequest,
  type NewAttemptResponse,
  newAttemptResponse,
  type VerificationDecisionRequest,
  type VerificationDecisionResponse,
  verificationDecisionResponse,
} from '#contracts/admin-verifications.ts';
import {
  type VerificationEvidenceResponse,
  verificationEvidenceResponse,
} from '#contracts/verification-evidence.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// The admin review queue's calls (`admin` routes: the session's client sends the token).

export function fetchVerifications(
  api: ApiClient,
  query: ListVerificationsQuery,
  signal?: AbortSignal,
): Promise<ListVerificationsResponse> {
  return api.call('ListVerifications', { query, response: listVerificationsResponse, signal });
}

export function postDecision(
  api: ApiClient,
  userId: string,
  body: VerificationDecisionRequest,
): Promise<VerificationDecisionResponse> {
  // Auth0 ids contain `|`: the client encodes the id as one path segment, whatever it holds.
  return api.call(
    'DecideVerification',
    {
      decision: body.decision,
      reasonCode: body.reasonCode,
      ...(body.reason ? { reason: body.reason } : {}),
    },
    { params: { userId }, response: verificationDecisionResponse },
  );
}

export function postNewAttempt(
  api: ApiClient,
  userId: string,
  body: NewAttemptRequest,
): Promise<NewAttemptResponse> {
  return api.call(
    'AllowVerificationAttempt',
    { reason: body.reason },
    { params: { userId }, response: newAttemptResponse },
  );
}

/** Why Persona flagged one verification (ADR 0082): its verifications' failed checks, from Persona. */
export function fetchEvidence(
  api: ApiClient,
  userId: string,
  signal?: AbortSignal,
): Promise<VerificationEvidenceResponse> {
  return api.call('GetVerificationEvidence', {
    params: { userId },
    response: verificationEvidenceResponse,
    signal,
  });
}

/** The admin trail of one verification (ADR 0078): who did what, when and why. */
export function fetchAuditTrail(
  api: ApiClient,
  userId: string,
  signal?: AbortSignal,
): Promise<VerificationAuditTrailResponse> {
  return api.call('GetVerificationAuditTrail', {
    params: { userId },
    response: verificationAuditTrailResponse,
    signal,
  });
}
