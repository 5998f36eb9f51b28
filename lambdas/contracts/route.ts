import type * as z from 'zod/mini';
import type { ProblemName } from './problem.ts';
import { type HttpMethod, publicRouteKeys, type RouteKey, webhookRouteKeys } from './route-keys.ts';
import { signedInRouteKeys } from './signed-in-route-keys.ts';

// How one API route's contract row is written (ADR 0066): `route(id, row)` beside the schemas it
// names, in the contract module of its subject (./registration.ts holds `createRegistrationRoute`).
// A handler imports its own row, so its bundle carries its own schemas and no other route's;
// ./api.ts gathers every row for the OpenAPI document and the web's types. Free of schemas itself.

/** Every route's route key, by route id (the tables of ./route-keys.ts and ./signed-in-route-keys.ts). */
type RouteKeys = typeof publicRouteKeys & typeof signedInRouteKeys & typeof webhookRouteKeys;

export type RouteId = keyof RouteKeys;

type MethodOf<Key> = Key extends `${infer Method extends HttpMethod} ${string}` ? Method : never;
type PathOf<Key> = Key extends `${HttpMethod} ${infer Path}` ? Path : never;

type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The path parameters of a route (`{ userId: string }`), an empty object for a route without any. */
export type PathParams<Id extends RouteId> = { [Name in ParamNames<RouteKeys[Id]>]: string };

/**
 * - `public`: anyone.
 * - `user`: a valid access token for the API audience (JWT authorizer); the user id is its `sub`.
 * - `admin`: as `user`, and the handler requires the namespaced role claim `admin`.
 * - `persona-signature`: no authorizer; the handler verifies `Persona-Signature` before parsing.
 *
 * In the contract rather than the backend's rows: the web's API client takes it (as a type) to
 * send each route through the right client, the public one or the session's, which sends the token.
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

/** Every route's request-body limit unless its row says otherwise: the forms and JSON calls are small. */
export const defaultMaxBodyBytes = 64 * 1024;

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
  /** The largest request body the route accepts, in bytes (413 above); `defaultMaxBodyBytes` when absent. */
  maxBodyBytes?: number;
}

/**
 * A route's whole contract: its id (a `RouteId`, stable: construct ids and logs use it), method and
 * path, and its row.
 */
export type ApiRoute = { id: string; method: HttpMethod; path: string } & RouteContract;

/** A route's row as `route` returns it: its literal id, method and path, and its contract. */
export type RouteRow<Id extends RouteId, Contract extends RouteContract> = {
  readonly id: Id;
  readonly method: MethodOf<RouteKeys[Id]>;
  readonly path: PathOf<RouteKeys[Id]>;
} & Contract;

/** The route key of a route id, from whichever table holds it. */
export function routeKeyOf(id: RouteId): RouteKey {
  const key: RouteKey | undefined =
    (publicRouteKeys as Record<string, RouteKey>)[id] ??
    (signedInRouteKeys as Record<string, RouteKey>)[id] ??
    (webhookRouteKeys as Record<string, RouteKey>)[id];
  // Fails the cold start, loudly, rather than serving a route with no known path.
  if (!key) throw new Error(`No route ${id} in lambdas/contracts/route-keys.ts`);
  return key;
}

/**
 * A route's contract row: its route key's method and path joined to its contract. Pure, so a
 * bundle that imports a contract module for a schema drops the rows it does not use.
 */
/* @__NO_SIDE_EFFECTS__ */
export function route<Id extends RouteId, const Contract extends RouteContract & { auth: AuthOfTable<Id> }>(
  id: Id,
  contract: Contract,
): RouteRow<Id, Contract> {
  const key = routeKeyOf(id);
  const space = key.indexOf(' ');
  return { id, method: key.slice(0, space), path: key.slice(space + 1), ...contract } as RouteRow<
    Id,
    Contract
  >;
}

/** The request-body limit of a route (its own, or the default). */
export function maxBodyBytesOf(route: Pick<RouteContract, 'maxBodyBytes'>): number {
  return route.maxBodyBytes ?? defaultMaxBodyBytes;
}
