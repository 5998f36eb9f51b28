import { email, eventBus, type Grant, secret, table } from './grants.ts';

// Every API route, once. The CDK API construct and the local gateway both build from this table;
// nothing else declares a route (DESIGN section 2).

/**
 * - `public`: anyone.
 * - `user`: a valid access token for the API audience (JWT authorizer); the user id is its `sub`.
 * - `admin`: as `user`, and the handler requires the namespaced role claim `admin`.
 * - `persona-signature`: no authorizer; the handler verifies `Persona-Signature` before parsing.
 */
export type AuthKind = 'public' | 'user' | 'admin' | 'persona-signature';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Throttle {
  /** Steady-state requests per second. */
  rateLimit: number;
  burstLimit: number;
}

export interface RouteDef {
  /** Stable identifier: construct ids and logs use it. PascalCase. */
  id: string;
  method: HttpMethod;
  /** API Gateway path template, `{name}` for a path parameter. */
  path: string;
  /** Module under `lambdas/handlers/` exporting `handler`. */
  handler: string;
  auth: AuthKind;
  throttle: Throttle;
  grants: Grant[];
  /** One-line purpose, also the operation summary in the OpenAPI document. */
  summary: string;
  timeoutSeconds?: number;
  memoryMb?: number;
  /** Caps concurrent executions, e.g. to stay inside Auth0's Management API rate limit. */
  reservedConcurrency?: number;
}

const throttles = {
  /** Cheap, cacheable reads. */
  read: { rateLimit: 50, burstLimit: 100 },
  /** Anonymous forms: low, because every call writes. */
  publicForm: { rateLimit: 5, burstLimit: 10 },
  /** Signed-in users' actions. */
  user: { rateLimit: 20, burstLimit: 40 },
  /** Persona retries on its own schedule; leave room for bursts after an outage. */
  webhook: { rateLimit: 50, burstLimit: 200 },
} as const satisfies Record<string, Throttle>;

export const routes: RouteDef[] = [
  {
    id: 'GetHealth',
    method: 'GET',
    path: '/api/health',
    handler: 'get-health',
    auth: 'public',
    throttle: throttles.read,
    grants: [],
    summary: 'Liveness check',
  },
  {
    id: 'CreateRegistration',
    method: 'POST',
    path: '/api/registrations',
    handler: 'create-registration',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [
      table('submissions', 'readWrite'),
      table('consentLedger', 'readPut'),
      secret('auth0M2m'),
      email,
      eventBus,
    ],
    summary: 'Register an organization and email login instructions',
    // Up to five Auth0 calls with a bounded 10 s retry budget each; a retry resumes safely.
    timeoutSeconds: 29,
    reservedConcurrency: 10,
  },
  {
    id: 'GetMe',
    method: 'GET',
    path: '/api/me',
    handler: 'get-me',
    auth: 'user',
    throttle: throttles.user,
    grants: [
      table('kycState', 'read'),
      table('consentLedger', 'read'),
      table('submissions', 'read'),
      secret('auth0M2m'),
    ],
    summary: "The caller's account, organization, KYC status and consent state (server truth)",
  },
  {
    id: 'SendVerificationEmail',
    method: 'POST',
    path: '/api/me/verification-email',
    handler: 'send-verification-email',
    auth: 'user',
    throttle: throttles.user,
    grants: [table('submissions', 'readWrite'), secret('auth0M2m')],
    summary: 'Send the caller a new email-verification link (one a minute)',
  },
  {
    id: 'CreateConsent',
    method: 'POST',
    path: '/api/consents',
    handler: 'create-consent',
    auth: 'user',
    throttle: throttles.user,
    grants: [table('consentLedger', 'readPut')],
    summary: "Record the caller's identity-verification consent in the ledger",
  },
  {
    id: 'ListMyConsents',
    method: 'GET',
    path: '/api/me/consents',
    handler: 'list-my-consents',
    auth: 'user',
    throttle: throttles.user,
    grants: [table('consentLedger', 'read')],
    summary: "The caller's own consent records",
  },
  {
    id: 'StartKycInquiry',
    method: 'POST',
    path: '/api/me/kyc/inquiry',
    handler: 'start-kyc-inquiry',
    auth: 'user',
    throttle: throttles.user,
    grants: [table('consentLedger', 'read'), table('kycState', 'readWrite'), secret('personaApiKey')],
    summary: "Create or resume the caller's Persona inquiry (after consent)",
    timeoutSeconds: 15,
  },
  {
    id: 'ReceivePersonaWebhook',
    method: 'POST',
    path: '/api/webhooks/persona',
    handler: 'receive-persona-webhook',
    auth: 'persona-signature',
    throttle: throttles.webhook,
    grants: [secret('personaWebhookSecret'), eventBus],
    summary: 'Persona inquiry events (signed)',
    timeoutSeconds: 5,
  },
  {
    id: 'ListVerifications',
    method: 'GET',
    path: '/api/admin/verifications',
    handler: 'list-verifications',
    auth: 'admin',
    throttle: throttles.user,
    // The queue's index and each user's history; the organization from the registration.
    grants: [table('kycState', 'read', true), table('submissions', 'read')],
    summary: 'Verifications by status, for admin review',
  },
  {
    id: 'DecideVerification',
    method: 'POST',
    path: '/api/admin/verifications/{userId}/decision',
    handler: 'decide-verification',
    auth: 'admin',
    throttle: throttles.user,
    grants: [table('kycState', 'readWrite'), eventBus],
    summary: "Approve or reject a user's verification, with a reason",
  },
  {
    id: 'CreateWaitlistEntry',
    method: 'POST',
    path: '/api/waitlist',
    handler: 'create-waitlist-entry',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Join the waitlist for updates',
  },
  {
    id: 'CreateInvestorInquiry',
    method: 'POST',
    path: '/api/investor-inquiries',
    handler: 'create-investor-inquiry',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Send an investor inquiry',
  },
  {
    id: 'CreateContactMessage',
    method: 'POST',
    path: '/api/contact',
    handler: 'create-contact-message',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Send a message to the team (business email only)',
  },
  {
    id: 'CreateDataDeletionRequest',
    method: 'POST',
    path: '/api/data-deletion-requests',
    handler: 'create-data-deletion-request',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put'), email],
    summary: 'Ask for personal data to be erased (answered within 30 days)',
  },
  {
    id: 'CreateCookieConsent',
    method: 'POST',
    path: '/api/cookie-consents',
    handler: 'create-cookie-consent',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: "Log a visitor's cookie choices",
  },
  {
    id: 'GetOpenApi',
    method: 'GET',
    path: '/api/openapi.json',
    handler: 'get-openapi',
    auth: 'public',
    throttle: throttles.read,
    grants: [],
    summary: 'This API, as an OpenAPI 3.1 document generated from the contracts',
  },
];
