import * as z from 'zod/mini';
import {
  listVerificationsQuery,
  listVerificationsResponse,
  newAttemptRequest,
  newAttemptResponse,
  verificationDecisionRequest,
  verificationDecisionResponse,
} from './admin-verifications.ts';
import { successResponse } from './common.ts';
import { consentCreated, consentHistory, consentRequest } from './consent.ts';
import { contactRequest } from './contact.ts';
import { cookieConsentRequest } from './cookie-consent.ts';
import {
  dataDeletionAccepted,
  dataDeletionConfirmation,
  dataDeletionPending,
  dataDeletionRequest,
  ownDataDeletionRequest,
} from './data-deletion.ts';
import { healthResponse } from './health.ts';
import { investorInquiryRequest } from './investor-inquiry.ts';
import { startKycInquiryResponse } from './kyc-inquiry.ts';
import { meResponse, verificationEmailResponse } from './me.ts';
import { personaWebhookEvent, personaWebhookResponse } from './persona-webhook.ts';
import type { ProblemName } from './problem.ts';
import { registrationRequest } from './registration.ts';
import { type HttpMethod, publicRouteKeys, type RouteKey, webhookRouteKeys } from './route-keys.ts';
import { signedInRouteKeys } from './signed-in-route-keys.ts';
import { waitlistRequest } from './waitlist.ts';

export type { HttpMethod, RouteKey } from './route-keys.ts';

// Every API route's contract, once, by route id: its method and path (its route key in
// ./route-keys.ts or ./signed-in-route-keys.ts, apart for the web's bundles), who may call it, the
// schemas of its body, query and answer, its success status and the problems it answers beyond
// those its shape implies. The handler's wrapper parses with these schemas
// (lambdas/http/http-handler.ts), the OpenAPI document is generated from them, the web's API
// client is typed from them, and lambdas/routes.ts adds what only the backend needs (ADR 0002).

/** Every route's route key, by route id. */
export const routeKeys = { ...publicRouteKeys, ...signedInRouteKeys, ...webhookRouteKeys };

export type RouteId = keyof typeof routeKeys;

type MethodOf<Key> = Key extends `${infer Method extends HttpMethod} ${string}` ? Method : never;
type PathOf<Key> = Key extends `${HttpMethod} ${infer Path}` ? Path : never;

/** A route key's method and path. */
function methodAndPath<Key extends RouteKey>(key: Key): { method: MethodOf<Key>; path: PathOf<Key> } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space), path: key.slice(space + 1) } as {
    method: MethodOf<Key>;
    path: PathOf<Key>;
  };
}

type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The path parameters of a route (`{ userId: string }`), an empty object for a route without any. */
export type PathParams<Id extends RouteId> = { [Name in ParamNames<(typeof routeKeys)[Id]>]: string };

/**
 * - `public`: anyone.
 * - `user`: a valid access token for the API audience (JWT authorizer); the user id is its `sub`.
 * - `admin`: as `user`, and the handler requires the namespaced role claim `admin`.
 * - `persona-signature`: no authorizer; the handler verifies `Persona-Signature` before parsing.
 *
 * Here rather than in routes.ts: the web's API client takes it (as a type) to send each route
 * through the right client, the public one or the session's, which sends the token.
 */
export type AuthKind = 'public' | 'user' | 'admin' | 'persona-signature';

/**
 * The auth a route's table of route keys implies: a route whose key is in the wrong table (the
 * web's clients each take theirs whole) does not compile.
 */
type AuthOfTable<Id extends RouteId> = Id extends keyof typeof publicRouteKeys
  ? 'public'
  : Id extends keyof typeof signedInRouteKeys
    ? 'user' | 'admin'
    : 'persona-signature';

/** A route's contract besides its method and path. */
export interface RouteContract {
  auth: AuthKind;
  /**
   * The JSON body's schema, for routes that take one: the wrapper parses it before the handler
   * runs, except on a `persona-signature` route, whose handler verifies the raw bytes first.
   */
  body?: z.ZodMiniType;
  /** The query string's schema (an object of optional strings/enums): the wrapper parses it. */
  query?: z.ZodMiniType;
  /** The success body's schema. */
  response: z.ZodMiniType;
  successStatus: number;
  /**
   * The problems the handler and its use case can answer beyond those the route's shape implies
   * (invalid input, no token, no admin role, 500): see `routeProblemNames` in lambdas/http/problems.ts.
   * The OpenAPI document lists them; tests/lambdas/http/route-problems.test.ts holds every handler to them.
   */
  problems: readonly ProblemName[];
}

/** The OpenAPI document itself, loosely: enough to say what GET /api/openapi.json returns. */
export const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

const contracts = {
  GetHealth: { auth: 'public', response: healthResponse, successStatus: 200, problems: [] },
  CreateRegistration: {
    auth: 'public',
    body: registrationRequest,
    response: successResponse,
    successStatus: 201,
    problems: ['serviceUnavailable'],
  },
  GetMe: { auth: 'user', response: meResponse, successStatus: 200, problems: ['accountNotFound'] },
  // 202 when an email is sent; 200 with `alreadyVerified` when there is nothing to do.
  SendVerificationEmail: {
    auth: 'user',
    response: verificationEmailResponse,
    successStatus: 202,
    problems: ['rateLimited', 'serviceUnavailable'],
  },
  CreateConsent: {
    auth: 'user',
    body: consentRequest,
    response: consentCreated,
    successStatus: 201,
    problems: ['forbidden', 'emailNotVerified', 'consentDocumentChanged', 'consentLedgerBusy'],
  },
  ListMyConsents: { auth: 'user', response: consentHistory, successStatus: 200, problems: [] },
  StartKycInquiry: {
    auth: 'user',
    response: startKycInquiryResponse,
    successStatus: 200,
    problems: [
      'emailNotVerified',
      'consentRequired',
      'identityAlreadyVerified',
      'verificationClosed',
      'concurrentChange',
      'verificationProviderUnavailable',
    ],
  },
  ReceivePersonaWebhook: {
    auth: 'persona-signature',
    body: personaWebhookEvent,
    response: personaWebhookResponse,
    successStatus: 200,
    problems: ['invalidSignature', 'serviceUnavailable'],
  },
  ListVerifications: {
    auth: 'admin',
    query: listVerificationsQuery,
    response: listVerificationsResponse,
    successStatus: 200,
    problems: [],
  },
  DecideVerification: {
    auth: 'admin',
    body: verificationDecisionRequest,
    response: verificationDecisionResponse,
    successStatus: 200,
    problems: ['ownVerification', 'verificationNotFound', 'verificationNotSubmitted', 'concurrentChange'],
  },
  AllowVerificationAttempt: {
    auth: 'admin',
    body: newAttemptRequest,
    response: newAttemptResponse,
    successStatus: 200,
    problems: [
      'ownVerification',
      'verificationNotFound',
      'verificationNotRejected',
      'attemptsExhausted',
      'concurrentChange',
    ],
  },
  CreateWaitlistEntry: {
    auth: 'public',
    body: waitlistRequest,
    response: successResponse,
    successStatus: 201,
    problems: [],
  },
  CreateInvestorInquiry: {
    auth: 'public',
    body: investorInquiryRequest,
    response: successResponse,
    successStatus: 201,
    problems: [],
  },
  CreateContactMessage: {
    auth: 'public',
    body: contactRequest,
    response: successResponse,
    successStatus: 201,
    problems: [],
  },
  // 202: the request waits for the owner's confirmation (the emailed link).
  CreateDataDeletionRequest: {
    auth: 'public',
    body: dataDeletionRequest,
    response: dataDeletionPending,
    successStatus: 202,
    problems: [],
  },
  ConfirmDataDeletionRequest: {
    auth: 'public',
    body: dataDeletionConfirmation,
    response: dataDeletionAccepted,
    successStatus: 200,
    problems: ['deletionConfirmationInvalid'],
  },
  CreateOwnDataDeletionRequest: {
    auth: 'user',
    body: ownDataDeletionRequest,
    response: dataDeletionAccepted,
    successStatus: 202,
    problems: ['emailNotVerified', 'accountNotFound'],
  },
  CreateCookieConsent: {
    auth: 'public',
    body: cookieConsentRequest,
    response: successResponse,
    successStatus: 201,
    problems: [],
  },
  GetOpenApi: { auth: 'public', response: openApiDocument, successStatus: 200, problems: [] },
} as const satisfies { [Id in RouteId]: RouteContract & { auth: AuthOfTable<Id> } };

export type ApiRoutes = {
  readonly [Id in RouteId]: {
    readonly id: Id;
    readonly method: MethodOf<(typeof routeKeys)[Id]>;
    readonly path: PathOf<(typeof routeKeys)[Id]>;
  } & (typeof contracts)[Id];
};

/**
 * A route's whole contract: its id (a `RouteId`, stable: construct ids and logs use it), method and
 * path, and its row above.
 */
export type ApiRoute = { id: string; method: HttpMethod; path: string } & RouteContract;

/** Every route id, in the table's order. */
export const routeIds = Object.keys(contracts) as RouteId[];

export const apiRoutes = Object.fromEntries(
  routeIds.map((id) => [id, { id, ...methodAndPath(routeKeys[id]), ...contracts[id] }]),
) as ApiRoutes;

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
