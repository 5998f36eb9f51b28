import { kycChannelNamespace } from './contracts/kyc-channel.ts';
import { reconcileDefaults } from './domain/kyc/reconcile-inquiries.ts';
import { envVars } from './environment.ts';
import { email, eventBus, type Grant, realtimePublish, secret, table, tableItems } from './grants.ts';
import { profileKeyPrefix, submissionKeyPrefixes } from './tables.ts';

// Every EventBridge rule on the custom bus, once. The CDK events construct and the local
// EventBridge endpoint (local/gateway) both build from this table.

export const eventSources = {
  kyc: 'platform.kyc',
  registration: 'platform.registration',
  account: 'platform.account',
  organization: 'platform.organization',
} as const;

export interface EventPattern {
  source: string[];
  'detail-type': string[];
  /** Matches on detail fields: each key lists the accepted values (EventBridge semantics). */
  detail?: Record<string, (string | number | boolean)[]>;
}

interface RuleBase {
  /** Stable identifier, PascalCase. */
  id: string;
  description: string;
  /** Module under `lambdas/handlers/` exporting `handler`. */
  handler: string;
  grants: Grant[];
  /** Delivery retries before the event goes to the rule's dead-letter queue. */
  retry: { maximumRetryAttempts: number; maximumEventAgeSeconds: number };
  timeoutSeconds?: number;
  reservedConcurrency?: number;
  /** The function's own settings, on top of the shared environment (the local stack sets them too). */
  environment?: Readonly<Record<string, string>>;
}

/** A rule is triggered either by matching events on the bus or by a schedule. */
export type EventRuleDef = RuleBase &
  ({ pattern: EventPattern; schedule?: never } | { schedule: { rateMinutes: number }; pattern?: never });

/**
 * The partition-key prefix of notify-kyc-decision's once-markers in the KYC table: the only items
 * it may write there (`NOTIFIED#<change id>`), so it can never touch a user's KYC state.
 */
export const kycDecisionMarkerPrefix = 'NOTIFIED';

const retry = { maximumRetryAttempts: 8, maximumEventAgeSeconds: 24 * 60 * 60 };

/**
 * Lambda's asynchronous invocation of a rule's function. EventBridge invokes Lambda
 * asynchronously, so a rule's `retry` covers only the delivery to Lambda (the Invoke call); once
 * Lambda has the event, a function error is retried `retryAttempts` times (about 1 and 2 minutes
 * apart) and a throttle (reserved concurrency reached) is retried with backoff from 1 second to 5
 * minutes, without counting as an attempt, until the event is `maxEventAgeSeconds` old; then the
 * event goes to the function's on-failure destination (the rule's dead-letter queue). The CDK
 * stack and the local bus both read it here (ADR 0062).
 */
export function asyncInvocation(rule: Pick<EventRuleDef, 'schedule'>): {
  retryAttempts: number;
  maxEventAgeSeconds: number;
} {
  // A scheduled rule runs again next minute anyway: its retries would only overlap the next run.
  // Six hours is Lambda's maximum event age: the backlog of a spent Auth0 quota waits in
  // Lambda's queue, throttled by reserved concurrency, rather than failing into retries.
  return rule.schedule
    ? { retryAttempts: 0, maxEventAgeSeconds: 60 * 60 }
    : { retryAttempts: 2, maxEventAgeSeconds: 6 * 60 * 60 };
}

export const eventRules: EventRuleDef[] = [
  {
    id: 'ProcessPersonaEvent',
    description: 'Apply a verified Persona webhook event to the KYC state (dedupe, ordering, outbox)',
    pattern: { source: [eventSources.kyc], 'detail-type': ['PersonaEventReceived'] },
    handler: 'process-persona-event',
    grants: [table('kycState', 'readWrite'), eventBus('KycStatusChanged')],
    retry,
    timeoutSeconds: 30,
  },
  {
    id: 'SyncKycStatus',
    description: 'Copy the current KYC status into the Auth0 user app_metadata (kyc_status, kyc_updated_at)',
    pattern: { source: [eventSources.kyc], 'detail-type': ['KycStatusChanged'] },
    handler: 'sync-kyc-status',
    // The profile records what Auth0 holds, so a redelivery asks Auth0 nothing (ADR 0059).
    grants: [
      table('kycState', 'read'),
      table('submissions', 'read'),
      tableItems('submissions', 'putUpdate', profileKeyPrefix),
      secret('auth0KycSync'),
    ],
    retry,
    timeoutSeconds: 30,
    // Auth0's Management API allows a few requests per second: keep bursts inside it.
    reservedConcurrency: 2,
  },
  {
    id: 'DeliverVerificationEmail',
    description: "Start Auth0's verification-email job for a person who asked for a new link",
    pattern: { source: [eventSources.account], 'detail-type': ['VerificationEmailRequested'] },
    handler: 'deliver-verification-email',
    grants: [secret('auth0VerificationEmail')],
    retry,
    timeoutSeconds: 30,
    // Auth0's Management API allows a few requests per second: keep bursts inside it.
    reservedConcurrency: 2,
  },
  {
    id: 'NotifyKycDecision',
    description: 'Email the user when their verification is approved or rejected',
    pattern: {
      source: [eventSources.kyc],
      'detail-type': ['KycStatusChanged'],
      detail: { status: ['approved', 'rejected'] },
    },
    handler: 'notify-kyc-decision',
    grants: [
      tableItems('kycState', 'putUpdate', `${kycDecisionMarkerPrefix}#`),
      // The address from the profile; Auth0 only for an account without one (ADR 0059).
      table('submissions', 'read'),
      secret('auth0ReadUsers'),
      email,
    ],
    retry,
    timeoutSeconds: 30,
  },
  {
    id: 'PushKycDecision',
    description:
      "Push a KYC status change to the user's open status screens (the realtime API's per-user channel)",
    pattern: { source: [eventSources.kyc], 'detail-type': ['KycStatusChanged'] },
    handler: 'push-kyc-decision',
    grants: [realtimePublish(kycChannelNamespace)],
    // A push is worth something for minutes, not a day: the screens poll while it is missing,
    // and what still fails after the retries waits in the dead-letter queue to be looked at.
    retry: { maximumRetryAttempts: 3, maximumEventAgeSeconds: 15 * 60 },
    timeoutSeconds: 15,
  },
  {
    id: 'ProcessRegistration',
    description:
      'The account work of an accepted registration: Auth0 user, agreements, password ticket, login or "already have an account" email',
    pattern: { source: [eventSources.registration], 'detail-type': ['RegistrationRequested'] },
    handler: 'process-registration',
    grants: [
      table('submissions', 'readWrite'),
      table('consentLedger', 'readPut'),
      secret('auth0Registration'),
      email,
      eventBus('RegistrationSubmitted'),
    ],
    retry,
    // Up to eight Auth0 calls (five for the user, three for its organization, ADR 0083) with a
    // bounded retry budget each; a retry resumes safely from the recorded progress.
    timeoutSeconds: 60,
    // Auth0's Management API allows a few requests per second: keep bursts inside it.
    reservedConcurrency: 5,
  },
  {
    id: 'NotifyRegistration',
    description: 'Email the operations address about a new registration',
    pattern: { source: [eventSources.registration], 'detail-type': ['RegistrationSubmitted'] },
    handler: 'notify-registration',
    grants: [table('submissions', 'readWrite'), email],
    retry,
  },
  {
    id: 'NotifyServiceRequest',
    description:
      "Email the operations address about an organization's service request (a dashboard quick action)",
    pattern: { source: [eventSources.organization], 'detail-type': ['ServiceRequestSubmitted'] },
    handler: 'notify-service-request',
    // Its once-markers only (Put and Update): the event carries what the email shows (ADR 0088).
    grants: [tableItems('submissions', 'putUpdate', submissionKeyPrefixes.onceMarker), email],
    retry,
  },
  {
    id: 'RelayKycOutbox',
    description: 'Publish KYC status changes whose immediate publish failed (the transactional outbox)',
    schedule: { rateMinutes: 1 },
    handler: 'relay-kyc-outbox',
    grants: [table('kycState', 'readWrite', true), eventBus('KycStatusChanged')],
    retry: { maximumRetryAttempts: 0, maximumEventAgeSeconds: 60 },
    timeoutSeconds: 60,
  },
  {
    id: 'ReconcileKycInquiries',
    description:
      'Read from Persona the inquiries of users still undecided after a while and apply what lost webhooks would have said',
    schedule: { rateMinutes: 15 },
    handler: 'reconcile-kyc-inquiries',
    // Reads only: process-persona-event applies the PersonaEventReceived it publishes (ADR 0038).
    grants: [table('kycState', 'read', true), secret('personaApiKey'), eventBus('PersonaEventReceived')],
    retry: { maximumRetryAttempts: 0, maximumEventAgeSeconds: 60 },
    // 100 Persona reads take seconds; a run stops after a few failures in a row (Persona down).
    timeoutSeconds: 120,
    // Two overlapping runs would only read twice (the processor dedupes), but one is enough.
    reservedConcurrency: 1,
    // The reconciliation's settings (ADR 0038): this row sets them, its handler reads them.
    environment: envVars({
      reconcileMinAgeMinutes: String(reconcileDefaults.minAgeMinutes),
      reconcileMaxInquiries: String(reconcileDefaults.maxInquiriesPerRun),
    }),
  },
];
