import type * as z from 'zod/mini';
import { getVerificationAuditTrailRoute } from './admin-audit.ts';
import {
  allowVerificationAttemptRoute,
  decideVerificationRoute,
  listVerificationsRoute,
} from './admin-verifications.ts';
import { createConsentRoute, listMyConsentsRoute, withdrawConsentRoute } from './consent.ts';
import { createContactMessageRoute } from './contact.ts';
import { createCookieConsentRoute } from './cookie-consent.ts';
import {
  cancelOwnDataDeletionRequestRoute,
  confirmDataDeletionRequestRoute,
  createDataDeletionRequestRoute,
  createOwnDataDeletionRequestRoute,
} from './data-deletion.ts';
import { exportMyDataRoute } from './data-export.ts';
import { getHealthRoute } from './health.ts';
import { createInvestorInquiryRoute } from './investor-inquiry.ts';
import { startKycInquiryRoute } from './kyc-inquiry.ts';
import { getMeRoute } from './me.ts';
import { getOpenApiRoute } from './openapi-document.ts';
import {
  changeOrganizationMemberRoleRoute,
  createOrganizationInvitationRoute,
  joinOrganizationRoute,
  listOrganizationTeamRoute,
  removeOrganizationMemberRoute,
  resendOrganizationInvitationRoute,
  revokeOrganizationInvitationRoute,
} from './organization-team.ts';
import { getOrganizationRoute } from './organization-workspace.ts';
import { receivePersonaWebhookRoute } from './persona-webhook.ts';
import { createRegistrationRoute } from './registration.ts';
import type { ApiRoute, AuthKind, RouteId } from './route.ts';
import { createServiceRequestRoute, listServiceRequestsRoute } from './service-request.ts';
import { sendVerificationEmailRoute } from './verification-email.ts';
import { getVerificationEvidenceRoute } from './verification-evidence.ts';
import { createWaitlistEntryRoute } from './waitlist.ts';

export type { ApiRoute, AuthKind, PathParams, RouteContract, RouteId } from './route.ts';
export type { HttpMethod, RouteKey } from './route-keys.ts';

// Every API route's contract row, gathered by route id. Each row is written once, with `route`
// (./route.ts), in the contract module of its subject: its method and path (its route key in
// ./route-keys.ts or ./signed-in-route-keys.ts, apart for the web's bundles), who may call it, the
// schemas of its body, query and answer, its success status, the problems it answers beyond those
// its shape implies, and its body limit. A handler passes its own row to the wrapper
// (lambdas/http/http-handler.ts), so its bundle holds no other route's schemas; this table is for
// what reads every route: the OpenAPI document, the web's API client's types, and
// lambdas/routes.ts, which adds what only the backend needs (ADR 0066).

export const apiRoutes = {
  GetHealth: getHealthRoute,
  CreateRegistration: createRegistrationRoute,
  GetMe: getMeRoute,
  SendVerificationEmail: sendVerificationEmailRoute,
  CreateConsent: createConsentRoute,
  ListMyConsents: listMyConsentsRoute,
  WithdrawConsent: withdrawConsentRoute,
  StartKycInquiry: startKycInquiryRoute,
  ReceivePersonaWebhook: receivePersonaWebhookRoute,
  ListVerifications: listVerificationsRoute,
  DecideVerification: decideVerificationRoute,
  AllowVerificationAttempt: allowVerificationAttemptRoute,
  GetVerificationAuditTrail: getVerificationAuditTrailRoute,
  GetVerificationEvidence: getVerificationEvidenceRoute,
  CreateWaitlistEntry: createWaitlistEntryRoute,
  CreateInvestorInquiry: createInvestorInquiryRoute,
  CreateContactMessage: createContactMessageRoute,
  CreateDataDeletionRequest: createDataDeletionRequestRoute,
  ConfirmDataDeletionRequest: confirmDataDeletionRequestRoute,
  CreateOwnDataDeletionRequest: createOwnDataDeletionRequestRoute,
  CancelOwnDataDeletionRequest: cancelOwnDataDeletionRequestRoute,
  ExportMyData: exportMyDataRoute,
  CreateCookieConsent: createCookieConsentRoute,
  GetOpenApi: getOpenApiRoute,
  GetOrganization: getOrganizationRoute,
  ListOrganizationTeam: listOrganizationTeamRoute,
  CreateOrganizationInvitation: createOrganizationInvitationRoute,
  ResendOrganizationInvitation: resendOrganizationInvitationRoute,
  RevokeOrganizationInvitation: revokeOrganizationInvitationRoute,
  ChangeOrganizationMemberRole: changeOrganizationMemberRoleRoute,
  RemoveOrganizationMember: removeOrganizationMemberRoute,
  JoinOrganization: joinOrganizationRoute,
  CreateServiceRequest: createServiceRequestRoute,
  ListServiceRequests: listServiceRequestsRoute,
} as const satisfies { [Id in RouteId]: ApiRoute & { id: Id } };

export type ApiRoutes = typeof apiRoutes;

/** Every route id, in the table's order. */
export const routeIds = Object.keys(apiRoutes) as RouteId[];

type SchemaKey = 'body' | 'query' | 'response';
type SchemaOf<Id extends RouteId, Key extends SchemaKey> = ApiRoutes[Id] extends {
  readonly [K in Key]: infer Schema extends z.ZodMiniType;
}
  ? Schema
  : undefined;

/** What a route's body, query or answer schema accepts: what a client sends (`undefined`: none). */
export type RouteInput<Id extends RouteId, Key extends SchemaKey> =
  SchemaOf<Id, Key> extends z.ZodMiniType ? z.input<SchemaOf<Id, Key>> : undefined;

/** What it yields once parsed: what a handler reads, or the answer a client gets. */
export type RouteOutput<Id extends RouteId, Key extends SchemaKey> =
  SchemaOf<Id, Key> extends z.ZodMiniType ? z.output<SchemaOf<Id, Key>> : undefined;

export type AuthOf<Id extends RouteId> = ApiRoutes[Id]['auth'];

/** The ids of the routes whose `auth` is one of these. */
export type RouteIdWith<Auth extends AuthKind> = {
  [Id in RouteId]: AuthOf<Id> extends Auth ? Id : never;
}[RouteId];
