import type { RouteId } from '#contracts/api.ts';
import type { ProblemName } from '#contracts/problem.ts';
import { email, eventBus, type Grant, secret, table } from './grants.ts';

// Every API route, once. The CDK API construct and the local gateway both build from this table;
// nothing else declares a route (docs/design.md section 2).

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
  /** Stable identifier (a `RouteId`): construct ids and logs use it; the handler names it (`httpHandler`). */
  id: string;
  method: HttpMethod;
  /** API Gateway path template, `{name}` for a path parameter. */
  path: string;
  /** Module under `lambdas/handlers/` exporting `handler`. */
  handler: string;
  /** `httpHandler` reads it from here: a handler names its route, never its own auth. */
  auth: AuthKind;
  throttle: Throttle;
  grants: Grant[];
  /** One-line purpose, also the operation summary in the OpenAPI document. */
  summary: string;
  /**
   * The problems the handler and its use case can answer beyond those the route's shape implies
   * (invalid input, no token, no admin role, 500): see `routeProblemNames` in lambdas/http/problems.ts.
   * The OpenAPI document lists them; tests/lambdas/http/route-problems.test.ts holds every handler to them.
   */
  problems: ProblemName[];
  timeoutSeconds?: number;
  memoryMb?: number;
  /** Caps concurrent executions, e.g. to stay inside Auth0's Management API rate limit. */
  reservedConcurrency?: number;
  /** The largest request body the handler accepts, in bytes (413 above); `defaultMaxBodyBytes` when absent. */
  maxBodyBytes?: number;
}

/** Every route's request-body limit unless its row says otherwise: the forms and JSON calls are small. */
export const defaultMaxBodyBytes = 64 * 1024;

/**
 * Persona's webhook events: with related objects in `included` (documents, selfies, reports), an
 * event can exceed 256 KB, and a refused one is retried for about 51 hours, then dropped. 2 MiB is
 * eight times that and stays inside Lambda's 6 MB invocation payload even base64-encoded (2.7 MiB).
 */
export const personaWebhookMaxBodyBytes = 2 * 1024 * 1024;

/** The request-body limit of a route (its own, or the default). */
export function maxBodyBytesOf(route: Pick<RouteDef, 'maxBodyBytes'>): number {
  return route.maxBodyBytes ?? defaultMaxBodyBytes;
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

/** Keeps each route's literal id and auth, so `httpHandler` can type the caller from the route. */
const route = <const Id extends RouteId, const Auth extends AuthKind>(
  def: RouteDef & { id: Id; auth: Auth },
) => def;

const routeList = [
  route({
    id: 'GetHealth',
    method: 'GET',
    path: '/api/health',
    handler: 'get-health',
    auth: 'public',
    throttle: throttles.read,
    grants: [],
    summary: 'Liveness check',
    problems: [],
  }),
  route({
    id: 'CreateRegistration',
    method: 'POST',
    path: '/api/registrations',
    handler: 'create-registration',
    auth: 'public',
    throttle: throttles.publicForm,
    // Stores the request and publishes its id; the account work is the ProcessRegistration rule's
    // (event-rules.ts), so both kinds of address are answered alike (ADR 0033).
    grants: [table('submissions', 'put'), eventBus('RegistrationRequested')],
    summary: 'Register an organization (login instructions follow by email)',
    problems: ['serviceUnavailable'],
  }),
  route({
    id: 'GetMe',
    method: 'GET',
    path: '/api/me',
    handler: 'get-me',
    auth: 'user',
    throttle: throttles.user,
    // No Auth0 credentials: the signed-in hot path spends none of the tenant's Management API
    // quota (ADR 0059).
    grants: [table('kycState', 'read'), table('consentLedger', 'read'), table('submissions', 'read')],
    summary: "The caller's account, organization, KYC status and consent state (server truth)",
    problems: ['accountNotFound'],
  }),
  route({
    id: 'SendVerificationEmail',
    method: 'POST',
    path: '/api/me/verification-email',
    handler: 'send-verification-email',
    auth: 'user',
    throttle: throttles.user,
    // Queued on the bus: the Auth0 call runs in DeliverVerificationEmail (ADR 0059).
    grants: [table('submissions', 'readWrite'), eventBus('VerificationEmailRequested')],
    summary: 'Send the caller a new email-verification link (one a minute; queued, 202)',
    problems: ['rateLimited', 'serviceUnavailable'],
  }),
  route({
    id: 'CreateConsent',
    method: 'POST',
    path: '/api/consents',
    handler: 'create-consent',
    auth: 'user',
    throttle: throttles.user,
    grants: [table('consentLedger', 'readPut')],
    summary: "Record the caller's identity-verification consent in the ledger",
    problems: ['forbidden', 'emailNotVerified', 'consentDocumentChanged', 'consentLedgerBusy'],
  }),
  route({
    id: 'ListMyConsents',
    method: 'GET',
    path: '/api/me/consents',
    handler: 'list-my-consents',
    auth: 'user',
    throttle: throttles.user,
    grants: [table('consentLedger', 'read')],
    summary: "The caller's own consent records",
    problems: [],
  }),
  route({
    id: 'StartKycInquiry',
    method: 'POST',
    path: '/api/me/kyc/inquiry',
    handler: 'start-kyc-inquiry',
    auth: 'user',
    throttle: throttles.user,
    // The bus: starting a new attempt a reviewer allowed changes the status (rejected -> not_started).
    grants: [
      table('consentLedger', 'read'),
      table('kycState', 'readWrite'),
      secret('personaApiKey'),
      eventBus('KycStatusChanged'),
    ],
    summary: "Create or resume the caller's Persona inquiry (after consent), or start an allowed new attempt",
    problems: [
      'emailNotVerified',
      'consentRequired',
      'identityAlreadyVerified',
      'verificationClosed',
      'concurrentChange',
      'verificationProviderUnavailable',
    ],
    timeoutSeconds: 15,
  }),
  route({
    id: 'ReceivePersonaWebhook',
    method: 'POST',
    path: '/api/webhooks/persona',
    handler: 'receive-persona-webhook',
    auth: 'persona-signature',
    throttle: throttles.webhook,
    grants: [secret('personaWebhookSecret'), eventBus('PersonaEventReceived')],
    summary: 'Persona inquiry events (signed)',
    problems: ['invalidSignature', 'serviceUnavailable'],
    timeoutSeconds: 5,
    maxBodyBytes: personaWebhookMaxBodyBytes,
  }),
  route({
    id: 'ListVerifications',
    method: 'GET',
    path: '/api/admin/verifications',
    handler: 'list-verifications',
    auth: 'admin',
    throttle: throttles.user,
    // The queue's index and each user's history; the organization from the registration.
    grants: [table('kycState', 'read', true), table('submissions', 'read')],
    summary: 'Verifications by status, for admin review',
    problems: [],
  }),
  route({
    id: 'DecideVerification',
    method: 'POST',
    path: '/api/admin/verifications/{userId}/decision',
    handler: 'decide-verification',
    auth: 'admin',
    throttle: throttles.user,
    grants: [table('kycState', 'readWrite'), eventBus('KycStatusChanged')],
    summary: "Approve or reject a user's submitted verification, with a reason code",
    problems: ['ownVerification', 'verificationNotFound', 'verificationNotSubmitted', 'concurrentChange'],
  }),
  route({
    id: 'AllowVerificationAttempt',
    method: 'POST',
    path: '/api/admin/verifications/{userId}/new-attempt',
    handler: 'allow-verification-attempt',
    auth: 'admin',
    throttle: throttles.user,
    grants: [table('kycState', 'readWrite')],
    summary: 'Allow a rejected user a new verification attempt (at most three in all), with a reason',
    problems: [
      'ownVerification',
      'verificationNotFound',
      'verificationNotRejected',
      'attemptsExhausted',
      'concurrentChange',
    ],
  }),
  route({
    id: 'CreateWaitlistEntry',
    method: 'POST',
    path: '/api/waitlist',
    handler: 'create-waitlist-entry',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Join the waitlist for updates',
    problems: [],
  }),
  route({
    id: 'CreateInvestorInquiry',
    method: 'POST',
    path: '/api/investor-inquiries',
    handler: 'create-investor-inquiry',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Send an investor inquiry',
    problems: [],
  }),
  route({
    id: 'CreateContactMessage',
    method: 'POST',
    path: '/api/contact',
    handler: 'create-contact-message',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Send a message to the team (business email only)',
    problems: [],
  }),
  route({
    id: 'CreateDataDeletionRequest',
    method: 'POST',
    path: '/api/data-deletion-requests',
    handler: 'create-data-deletion-request',
    auth: 'public',
    throttle: throttles.publicForm,
    // readWrite: the per-recipient email limit is a conditional put and update (ADR 0033).
    grants: [table('submissions', 'readWrite'), email],
    summary: 'Ask for personal data to be erased; the address receives a link to confirm it',
    problems: [],
  }),
  route({
    id: 'ConfirmDataDeletionRequest',
    method: 'POST',
    path: '/api/data-deletion-requests/confirm',
    handler: 'confirm-data-deletion-request',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'readWrite')],
    summary: 'Confirm a data-deletion request with the emailed token (starts the 30 days)',
    problems: ['deletionConfirmationInvalid'],
  }),
  route({
    id: 'CreateOwnDataDeletionRequest',
    method: 'POST',
    path: '/api/me/data-deletion-requests',
    handler: 'create-own-data-deletion-request',
    auth: 'user',
    throttle: throttles.user,
    // The address from the profile or the token: no Auth0 credentials (ADR 0059).
    grants: [table('submissions', 'readPut'), email],
    summary: "Ask for the caller's own data to be erased (confirmed by the token; answered within 30 days)",
    problems: ['emailNotVerified', 'accountNotFound'],
  }),
  route({
    id: 'CreateCookieConsent',
    method: 'POST',
    path: '/api/cookie-consents',
    handler: 'create-cookie-consent',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: "Log a visitor's cookie choices",
    problems: [],
  }),
  route({
    id: 'GetOpenApi',
    method: 'GET',
    path: '/api/openapi.json',
    handler: 'get-openapi',
    auth: 'public',
    throttle: throttles.read,
    grants: [],
    summary: 'This API, as an OpenAPI 3.1 document generated from the contracts',
    problems: [],
  }),
];

/**
 * Every route first checks that its request came through CloudFront (the origin secret, ADR 0032),
 * so every route's function reads that secret: granted here, once, rather than on each row.
 */
export const routes: RouteDef[] = routeList.map((def) => ({
  ...def,
  grants: [...def.grants, secret('originVerify')],
}));

export type RouteById<Id extends RouteId> = Extract<(typeof routeList)[number], { id: Id }>;
export type AuthOf<Id extends RouteId> = RouteById<Id>['auth'];
