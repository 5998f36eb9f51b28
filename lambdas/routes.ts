import { type Grant, table } from './grants.ts';

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
  timeoutSeconds?: number;
  memoryMb?: number;
}

const throttles = {
  /** Cheap, cacheable reads. */
  read: { rateLimit: 50, burstLimit: 100 },
  /** Anonymous forms: low, because every call writes. */
  publicForm: { rateLimit: 5, burstLimit: 10 },
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
  },
  {
    id: 'CreateWaitlistEntry',
    method: 'POST',
    path: '/api/waitlist',
    handler: 'create-waitlist-entry',
    auth: 'public',
    throttle: throttles.publicForm,
    grants: [table('submissions', 'put')],
  },
];
