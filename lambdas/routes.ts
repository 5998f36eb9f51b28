import { type ApiRoute, apiRoutes, type RouteId, routeIds } from '#contracts/api.ts';
import { email, eventBus, type Grant, secret, table, tableItems } from './grants.ts';
import { profileKeyPrefix, submissionKeyPrefixes } from './tables.ts';

export type { AuthKind, HttpMethod } from '#contracts/api.ts';

// What the backend needs of every API route, by route id: the handler module, throttling, grants
// and limits. The route's shape (auth, schemas, problems, body limit, and its route key: method
// and path) is its contract row, gathered in lambdas/contracts/api.ts (ADR 0066); `routes` joins
// the two. The CDK API construct and the local gateway both build from `routes`; nothing else
// declares a route (docs/design.md section 2). Handlers do not import this module: each passes
// its own contract row to the wrapper, so a bundle carries no other route's schemas or grants.

export interface Throttle {
  /** Steady-state requests per second. */
  rateLimit: number;
  burstLimit: number;
}

/** What only the backend needs of a route. */
export interface BackendRoute {
  /** Module under `lambdas/handlers/` exporting `handler`. */
  handler: string;
  throttle: Throttle;
  grants: Grant[];
  /** One-line purpose, also the operation summary in the OpenAPI document. */
  summary: string;
  timeoutSeconds?: number;
  memoryMb?: number;
  /** Caps concurrent executions, e.g. to stay inside Auth0's Management API rate limit. */
  reservedConcurrency?: number;
}

/**
 * A route's two rows joined: its contract (`id`, which construct ids and logs use and the handler
 * names in `httpHandler`; method; path; auth, which `httpHandler` enforces, a handler never its
 * own; schemas; problems) and what the backend adds.
 */
export type Route = ApiRoute & BackendRoute;

/**
 * What the stack, the local gateway and the edge read of a route: no answer schema, so the local
 * gateway and tests can declare routes of their own.
 */
export type RouteDef = Pick<
  ApiRoute,
  'id' | 'method' | 'path' | 'auth' | 'problems' | 'body' | 'query' | 'maxBodyBytes'
> &
  BackendRoute;

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

const backendRoutes: { [Id in RouteId]: BackendRoute } = {
  GetHealth: {
    handler: 'get-health',
    throttle: throttles.read,
    grants: [],
    summary: 'Liveness check',
  },
  CreateRegistration: {
    handler: 'create-registration',
    throttle: throttles.publicForm,
    // Stores the request and publishes its id; the account work is the ProcessRegistration rule's
    // (event-rules.ts), so both kinds of address are answered alike (ADR 0033).
    grants: [table('submissions', 'put'), eventBus('RegistrationRequested')],
    summary: 'Register an organization (login instructions follow by email)',
  },
  GetMe: {
    handler: 'get-me',
    throttle: throttles.user,
    // No Auth0 credentials: the signed-in hot path spends none of the tenant's Management API
    // quota (ADR 0059).
    grants: [table('kycState', 'read'), table('consentLedger', 'read'), table('submissions', 'read')],
    summary: "The caller's account, organization, KYC status and consent state (server truth)",
  },
  SendVerificationEmail: {
    handler: 'send-verification-email',
    throttle: throttles.user,
    // Queued on the bus: the Auth0 call runs in DeliverVerificationEmail (ADR 0059). Of the
    // submissions table only its limits' windows (ADR 0072).
    grants: [
      tableItems('submissions', 'putUpdate', submissionKeyPrefixes.rateLimit),
      eventBus('VerificationEmailRequested'),
    ],
    summary: 'Send the caller a new email-verification link (one a minute; queued, 202)',
  },
  CreateConsent: {
    handler: 'create-consent',
    throttle: throttles.user,
    // The per-user limit's windows (ADR 0072); the profile's language choice, updated in the
    // ledger append's transaction (issue 28).
    grants: [
      table('consentLedger', 'readPut'),
      tableItems('submissions', 'putUpdate', submissionKeyPrefixes.rateLimit),
      tableItems('submissions', 'update', profileKeyPrefix),
    ],
    summary: "Record the caller's identity-verification consent in the ledger",
  },
  WithdrawConsent: {
    handler: 'withdraw-consent',
    throttle: throttles.user,
    // The ledger (read the chain, append the withdrawal), the KYC state read to find the inquiry,
    // Persona's key to expire or redact it, the state of a redacted inquiry back to not_started
    // and its status change published, and the shared `consent` limit's windows (ADR 0075).
    grants: [
      table('consentLedger', 'readPut'),
      table('kycState', 'readWrite'),
      eventBus('KycStatusChanged'),
      secret('personaApiKey'),
      tableItems('submissions', 'putUpdate', submissionKeyPrefixes.rateLimit),
    ],
    summary: "Withdraw the caller's identity-verification consent and stop the verification it allowed",
    timeoutSeconds: 15,
  },
  ListMyConsents: {
    handler: 'list-my-consents',
    throttle: throttles.user,
    grants: [table('consentLedger', 'read')],
    summary: "The caller's own consent records",
  },
  StartKycInquiry: {
    handler: 'start-kyc-inquiry',
    throttle: throttles.user,
    // The bus: starting a new attempt a reviewer allowed changes the status (rejected -> not_started).
    grants: [
      table('consentLedger', 'read'),
      table('kycState', 'readWrite'),
      secret('personaApiKey'),
      eventBus('KycStatusChanged'),
      // The per-user limit's windows (ADR 0072).
      tableItems('submissions', 'putUpdate', submissionKeyPrefixes.rateLimit),
    ],
    summary: "Create or resume the caller's Persona inquiry (after consent), or start an allowed new attempt",
    timeoutSeconds: 15,
  },
  ReceivePersonaWebhook: {
    handler: 'receive-persona-webhook',
    throttle: throttles.webhook,
    grants: [secret('personaWebhookSecret'), eventBus('PersonaEventReceived')],
    summary: 'Persona inquiry events (signed)',
    timeoutSeconds: 5,
  },
  ListVerifications: {
    handler: 'list-verifications',
    throttle: throttles.user,
    // The queue's index and each user's history; the organization from the registration.
    grants: [table('kycState', 'read', true), table('submissions', 'read')],
    summary: 'Verifications by status, for admin review',
  },
  DecideVerification: {
    handler: 'decide-verification',
    throttle: throttles.user,
    // The trail's head read, and the entry put in the decision's own transaction (ADR 0078); the
    // registration's organization type, for four-eyes (ADR 0080).
    grants: [
      table('kycState', 'readWrite'),
      table('adminAuditLog', 'readPut'),
      // An invited member's organization type is in their profile (ADR 0084).
      tableItems('submissions', 'read', submissionKeyPrefixes.registration, profileKeyPrefix),
      eventBus('KycStatusChanged'),
    ],
    summary: "Approve or reject a user's submitted verification, with a reason code",
  },
  AllowVerificationAttempt: {
    handler: 'allow-verification-attempt',
    throttle: throttles.user,
    grants: [table('kycState', 'readWrite'), table('adminAuditLog', 'readPut')],
    summary: 'Allow a rejected user a new verification attempt (at most three in all), with a reason',
  },
  GetOrganization: {
    handler: 'get-organization',
    throttle: throttles.user,
    // The organization's own item only (ADR 0083); the token's org_id is checked before the read.
    grants: [tableItems('submissions', 'read', submissionKeyPrefixes.organization)],
    summary: "The organization the caller signed in through: its name, type and the caller's role",
  },
  // The team (ADR 0084): every route reads the organization's partition (its record, members and
  // invitations: one Query) and checks the caller's membership and role there, not in the token
  // alone. Changes are written with their admin-trail entry in one transaction; invitations are
  // never deleted (a revoked or accepted one is marked so, and expires by TTL).
  ListOrganizationTeam: {
    handler: 'list-organization-team',
    throttle: throttles.user,
    // The members' KYC states, nothing else of the KYC table.
    grants: [
      tableItems('submissions', 'read', submissionKeyPrefixes.organization),
      table('kycState', 'read'),
    ],
    summary: "The organization's members (role, email verified, KYC status) and pending invitations",
  },
  CreateOrganizationInvitation: {
    handler: 'create-organization-invitation',
    throttle: throttles.user,
    // The inviter's approval (their KYC state); the inviter's and the recipient's budgets.
    grants: [
      tableItems(
        'submissions',
        'readWrite',
        submissionKeyPrefixes.organization,
        submissionKeyPrefixes.rateLimit,
      ),
      table('kycState', 'read'),
      table('adminAuditLog', 'readPut'),
      secret('auth0OrganizationTeam'),
    ],
    summary: 'Invite a colleague by business email (an Auth0 organization invitation, valid 7 days)',
    timeoutSeconds: 15,
  },
  ResendOrganizationInvitation: {
    handler: 'resend-organization-invitation',
    throttle: throttles.user,
    grants: [
      tableItems(
        'submissions',
        'readWrite',
        submissionKeyPrefixes.organization,
        submissionKeyPrefixes.rateLimit,
      ),
      table('kycState', 'read'),
      table('adminAuditLog', 'readPut'),
      secret('auth0OrganizationTeam'),
    ],
    summary: 'Replace a pending invitation with a new one (a new link, valid 7 days from now)',
    timeoutSeconds: 15,
  },
  RevokeOrganizationInvitation: {
    handler: 'revoke-organization-invitation',
    throttle: throttles.user,
    grants: [
      tableItems('submissions', 'readWrite', submissionKeyPrefixes.organization),
      table('adminAuditLog', 'readPut'),
      secret('auth0OrganizationTeam'),
    ],
    summary: 'Revoke a pending invitation: its link stops working',
    timeoutSeconds: 15,
  },
  ChangeOrganizationMemberRole: {
    handler: 'change-organization-member-role',
    throttle: throttles.user,
    // The member's profile carries the role GET /api/me answers.
    grants: [
      tableItems('submissions', 'readWrite', submissionKeyPrefixes.organization, profileKeyPrefix),
      table('kycState', 'read'),
      table('adminAuditLog', 'readPut'),
      secret('auth0OrganizationTeam'),
    ],
    summary: "Change a member's role in the organization (org_admin or org_member)",
    timeoutSeconds: 15,
  },
  RemoveOrganizationMember: {
    handler: 'remove-organization-member',
    throttle: throttles.user,
    // The member's profile is marked, so their session ends at its next check (GET /api/me).
    grants: [
      tableItems('submissions', 'readWrite', submissionKeyPrefixes.organization, profileKeyPrefix),
      table('adminAuditLog', 'readPut'),
      secret('auth0OrganizationTeam'),
    ],
    summary: 'Remove a member from the organization: their session ends, their consent records are kept',
    timeoutSeconds: 15,
  },
  JoinOrganization: {
    handler: 'join-organization',
    throttle: throttles.user,
    // The invitation becomes a membership and the invitee's profile; nothing asked of Auth0.
    grants: [
      tableItems('submissions', 'readWrite', submissionKeyPrefixes.organization, profileKeyPrefix),
      table('adminAuditLog', 'readPut'),
    ],
    summary: "After accepting an invitation: the invitation for the caller's address becomes a membership",
  },
  // The dashboards' quick actions as service requests (ADR 0088): the organization's request
  // partition (`SERVICE_REQUEST#<org_id>`), never its team's.
  CreateServiceRequest: {
    handler: 'create-service-request',
    throttle: throttles.user,
    // The requester's approval (their KYC state), the organization's record (its type and name)
    // and the caller's member item (a removal counts at once, ADR 0084), the request put once, read when it exists and marked queued, the per-user limit's windows,
    // and the event NotifyServiceRequest emails operations from.
    grants: [
      table('kycState', 'read'),
      tableItems('submissions', 'read', submissionKeyPrefixes.organization),
      tableItems('submissions', 'readWrite', submissionKeyPrefixes.serviceRequest),
      tableItems('submissions', 'putUpdate', submissionKeyPrefixes.rateLimit),
      eventBus('ServiceRequestSubmitted'),
    ],
    summary: 'Ask operations for a quick action (one open request per action and organization; 202)',
  },
  ListServiceRequests: {
    handler: 'list-service-requests',
    throttle: throttles.user,
    // The caller's member item (ADR 0084), then the requests' Query.
    grants: [
      tableItems('submissions', 'read', submissionKeyPrefixes.organization),
      tableItems('submissions', 'read', submissionKeyPrefixes.serviceRequest),
    ],
    summary: "The organization's service requests with their state",
  },
  GetVerificationAuditTrail: {
    handler: 'get-verification-audit-trail',
    throttle: throttles.user,
    // The trail's byTarget index only; nothing written (ADR 0078).
    grants: [table('adminAuditLog', 'read', true)],
    summary: "The admin audit trail of one person's verification: who did what, when and why",
  },
  GetVerificationEvidence: {
    handler: 'get-verification-evidence',
    throttle: throttles.user,
    // The state's current inquiry, then Persona's inquiry with its verifications; nothing written
    // (ADR 0082).
    grants: [table('kycState', 'read'), secret('personaApiKey')],
    summary: "Why Persona flagged one person's verification: its verifications' failed checks",
    timeoutSeconds: 10,
  },
  CreateWaitlistEntry: {
    handler: 'create-waitlist-entry',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Join the waitlist for updates',
  },
  CreateInvestorInquiry: {
    handler: 'create-investor-inquiry',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Send an investor inquiry',
  },
  CreateContactMessage: {
    handler: 'create-contact-message',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: 'Send a message to the team (business email only)',
  },
  CreateDataDeletionRequest: {
    handler: 'create-data-deletion-request',
    throttle: throttles.publicForm,
    // Anyone may call it: the request's own item and the per-recipient email limit's windows (a
    // conditional put and update, ADR 0033), nothing else of the table (ADR 0072).
    grants: [
      tableItems('submissions', 'put', submissionKeyPrefixes.deletionRequest),
      tableItems('submissions', 'putUpdate', submissionKeyPrefixes.rateLimit),
      email,
    ],
    summary: 'Ask for personal data to be erased; the address receives a link to confirm it',
  },
  ConfirmDataDeletionRequest: {
    handler: 'confirm-data-deletion-request',
    throttle: throttles.publicForm,
    // One conditional update of the request the token names (ADR 0072).
    grants: [tableItems('submissions', 'update', submissionKeyPrefixes.deletionRequest)],
    summary: 'Confirm a data-deletion request with the emailed token (starts the 30 days)',
  },
  CreateOwnDataDeletionRequest: {
    handler: 'create-own-data-deletion-request',
    throttle: throttles.user,
    // The address from the profile or the token: no Auth0 credentials (ADR 0059). The profile is
    // read with the registration and the account's deletion pointer (one BatchGetItem, so one
    // statement names the three prefixes), the request is put; nothing else of the table (ADR 0072).
    grants: [
      tableItems(
        'submissions',
        'read',
        profileKeyPrefix,
        submissionKeyPrefixes.registration,
        submissionKeyPrefixes.deletionRequest,
      ),
      // The request and the account's pointer to it, put together; both read to answer a pending
      // request instead of filing a second (ADR 0076).
      tableItems('submissions', 'readPut', submissionKeyPrefixes.deletionRequest),
      // The per-user limit's windows.
      tableItems('submissions', 'putUpdate', submissionKeyPrefixes.rateLimit),
      email,
    ],
    summary: "Ask for the caller's own data to be erased (confirmed by the token; answered within 30 days)",
  },
  ExportMyData: {
    handler: 'export-my-data',
    throttle: throttles.user,
    // Everything held about the caller, from the product's own stores (no Auth0 credentials, ADR
    // 0059). The submissions table whole, with its indexes: the byEmail index's key is the address,
    // which no key prefix narrows; the writes only to the per-user limit's windows (ADR 0076).
    grants: [
      table('kycState', 'read'),
      table('consentLedger', 'read'),
      table('submissions', 'read', true),
      tableItems('submissions', 'putUpdate', submissionKeyPrefixes.rateLimit),
    ],
    summary: 'Download everything held about the caller (GDPR Art. 15 and 20), 5 a day',
  },
  CancelOwnDataDeletionRequest: {
    handler: 'cancel-own-data-deletion-request',
    throttle: throttles.user,
    // The pointer is deleted and the request marked cancelled, in one transaction; nothing else of
    // the table (ADR 0076).
    grants: [tableItems('submissions', 'readWriteDelete', submissionKeyPrefixes.deletionRequest)],
    summary: "Withdraw the caller's own pending data-deletion request (before it is carried out)",
  },
  CreateCookieConsent: {
    handler: 'create-cookie-consent',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
    summary: "Log a visitor's cookie choices",
  },
  GetOpenApi: {
    handler: 'get-openapi',
    throttle: throttles.read,
    grants: [],
    summary: 'This API, as an OpenAPI 3.1 document generated from the contracts',
  },
};

/**
 * Every route first checks that its request came through CloudFront (the origin secret, ADR 0032),
 * so every route's function reads that secret: granted here, once, rather than on each row.
 */
export const routes: Route[] = routeIds.map((id) => ({
  ...apiRoutes[id],
  ...backendRoutes[id],
  grants: [...backendRoutes[id].grants, secret('originVerify')],
}));
