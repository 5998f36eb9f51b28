import {
  type VerificationAuditTrailResponse,
  verificationAuditTrailResponse,
} from '#contracts/admin-audit.ts';
import {
  type ListVerificationsResponse,
  listVerificationsResponse,
  type NewAttemptRequest,
  type NewAttemptResponse,
  newAttemptResponse,
  type VerificationDecisionRequest,
  type VerificationDecisionResponse,
  type VerificationStatusFilter,
  verificationDecisionResponse,
} from '#contracts/admin-verifications.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// The admin review queue's calls (`admin` routes: the session's client sends the token).

export function fetchVerifications(
  api: ApiClient,
  status: VerificationStatusFilter,
  signal?: AbortSignal,
): Promise<ListVerificationsResponse> {
  return api.call('ListVerifications', { query: { status }, response: listVerificationsResponse, signal });
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
