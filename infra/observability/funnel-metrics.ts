// The business metrics the handlers emit with `countMetric` (lambdas/runtime/metrics.ts), grouped as
// the dashboard shows them. tests/infra/observability/observability.test.ts checks this list against the code,
// so a new metric in a handler appears here (or the test says which one is missing).

export const funnelMetrics = {
  'Onboarding funnel': [
    'RegistrationSubmitted',
    'VerificationEmailQueued',
    'VerificationEmailSent',
    'ConsentRecorded',
    'ConsentWithdrawn',
    'WebhookAccepted',
    'KycStatusChanged',
    'KycStatusSynced',
    'KycDecisionEmailSent',
    'KycDecisionPushed',
  ],
  'Webhooks and KYC pipeline': [
    'WebhookRejectedSignature',
    'WebhookDuplicate',
    'WebhookPublishFailed',
    'KycOutboxRelayed',
    'KycOutboxRelayFailed',
    'KycReconciledEvents',
    'KycReconcileFailed',
    'PersonaDecisionHeld',
    'KycStatusSyncRefused',
    'InvalidEventDropped',
    'ConsentWithdrawalProviderFailed',
  ],
  'Forms and data rights': [
    'RegistrationNotificationSent',
    'ServiceRequested',
    'ServiceRequestNotificationSent',
    'ContactMessageReceived',
    'InvestorInquiryReceived',
    'DataDeletionRequested',
    'DataDeletionConfirmationFailed',
    'DataDeletionConfirmed',
    'DataDeletionCancelled',
    'DataExported',
    'PublicEmailSuppressed',
  ],
} as const satisfies Record<string, readonly string[]>;

/**
 * Counted per purpose (`countMetricBy`, dimension `Purpose`: the M2M credentials a function uses),
 * against the tenant's one Management API quota (ADR 0059). Graphed with a SEARCH per purpose.
 */
export const managementApiMetrics = ['Auth0ManagementCalls', 'Auth0ManagementRateLimited'] as const;
