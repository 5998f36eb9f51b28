// The only module that calls fetch. A route is called by its id, `api.call('CreateRegistration',
// body, { response: successResponse })`: its method and path come from the client's table of route
// keys (lambdas/contracts/route-keys.ts), and its body, path parameters, query and answer are typed
// from its contract row (lambdas/contracts/api.ts), so no screen writes a path. Answers are
// validated against the contract schema the caller passes (so a page loads only the schemas it
// uses), and every failure (problem+json, another error status, a network error, an unexpected
// body) is an ApiError that keeps the problem `type`, so a screen can tell one refusal from another.
//
// `api` (./public-api.ts) serves the public routes. The signed-in app builds its own client with
// `createApiClient(signedInRouteKeys, { getAccessToken, onUnauthorized })`
// (web/src/app/app-layout.tsx): it sends the bearer token and turns a 401 into the session-expired
// path. Each client takes only the ids of its routes (the `public` ones, or the `user` and `admin`
// ones): a route on the wrong client, or one that does not exist, does not compile.

import type * as z from 'zod/mini';
import type { PathParams, RouteId, RouteIdWith, RouteInput, RouteOutput } from '#contracts/api.ts';
import { type FieldError, problem, problemContentType } from '#contracts/problem.ts';
import type { RouteKey } from '#contracts/route-keys.ts';
import { buildLocale } from '#web/config/locale.ts';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived (network failure, aborted request). */
  readonly status: number;
  /** The problem `type` URI (`about:blank` when the answer was not problem+json). */
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: readonly FieldError[];

  /** Seconds from a `Retry-After` header (429, 503), when the API sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    status: number;
    title: string;
    type?: string;
    detail?: string;
    errors?: readonly FieldError[];
    retryAfterSeconds?: number;
  }) {
    super(init.detail ? `${init.title}: ${init.detail}` : init.title);
    this.status = init.status;
    this.type = init.type ?? 'about:blank';
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
  }

  /** Whether the problem `type` is this one (the URIs are exported by `#contracts/problem.ts`). */
  is(type: string): boolean {
    return this.type === type;
  }

  /** The API's message for one request field, if it named that field. */
  fieldError(field: string): string | undefined {
    return this.errors.find((error) => error.field === field)?.message;
  }
}

export interface RequestOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The signed-in app's hooks into the client. */
export interface SessionHooks {
  /** A current access token (the identity SDK refreshes it when needed); throws when there is none. */
  getAccessToken(): Promise<string>;
  /** The API answered 401: the token was refused (or the membership ended), so the session is over. */
  onUnauthorized(error: ApiError): void;
}

async function request<T>(
  method: string,
  path: string,
  schema: z.ZodMiniType<T>,
  body: unknown,
  options: RequestOptions,
  session: SessionHooks | undefined,
): Promise<T> {
  const headers: Record<string, string> = {
    Accept: `application/json, ${problemContentType}`,
    // The page's language: problem details, field errors and emails follow it (ADR 0089).
    'Accept-Language': buildLocale,
    ...options.headers,
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (session) headers.Authorization = `Bearer ${await session.getAccessToken()}`;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    throw new ApiError({ status: 0, title: 'Network error', detail: (error as Error).message });
  }

  const data = await readJson(response);
  if (!response.ok) {
    const error = toApiError(response, data);
    if (response.status === 401) session?.onUnauthorized(error);
    throw error;
  }

  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      title: 'Unexpected response',
      detail: `from ${method} ${path}`,
    });
  }
  return parsed.data;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function retryAfter(response: Response): number | undefined {
  const raw = response.headers.get('Retry-After');
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function toApiError(response: Response, data: unknown): ApiError {
  const isProblem = response.headers.get('Content-Type')?.startsWith(problemContentType) ?? false;
  const parsed = isProblem ? problem.safeParse(data) : undefined;
  const retryAfterSeconds = retryAfter(response);
  if (parsed?.success) {
    const { type, title, detail, errors } = parsed.data;
    return new ApiError({ status: response.status, type, title, detail, errors, retryAfterSeconds });
  }
  return new ApiError({
    status: response.status,
    title: response.statusText || 'Request failed',
    retryAfterSeconds,
  });
}

/** Which routes a client calls: the public client the `public` ones, the session's `user` and `admin`. */
interface AudienceAuth {
  public: 'public';
  session: 'user' | 'admin';
}
type Audience = keyof AudienceAuth;

/** A client's table of route keys: exactly its audience's routes (lambdas/contracts/*route-keys.ts). */
export type ClientRouteKeys<A extends Audience> = { readonly [Id in RouteIdWith<AudienceAuth[A]>]: RouteKey };

/** A call's options: the answer's schema, the path parameters and the query its route has. */
export type CallOptions<Id extends RouteId> = RequestOptions & {
  /** The contract's schema of the route's answer: a success that breaks it is an ApiError. */
  response: z.ZodMiniType<RouteOutput<Id, 'response'>>;
} & (keyof PathParams<Id> extends never ? { params?: never } : { params: PathParams<Id> }) &
  (RouteInput<Id, 'query'> extends undefined ? { query?: never } : { query?: RouteInput<Id, 'query'> });

/** The body first on a route that takes one, then the options. */
export type CallArgs<Id extends RouteId> =
  RouteInput<Id, 'body'> extends undefined
    ? [options: CallOptions<Id>]
    : [body: RouteInput<Id, 'body'>, options: CallOptions<Id>];

/** The session's client (`user` and `admin` routes) unless `public` is named. */
export interface ApiClient<A extends Audience = 'session'> {
  call<Id extends RouteIdWith<AudienceAuth[A]>>(
    id: Id,
    ...args: CallArgs<Id>
  ): Promise<RouteOutput<Id, 'response'>>;
}

interface AnyCallOptions extends RequestOptions {
  response: z.ZodMiniType;
  params?: Record<string, string>;
  query?: Record<string, unknown>;
}

/** The route's path with its parameters filled in (each one path segment, whatever it holds) and the query. */
function urlOf(path: string, { params, query }: AnyCallOptions): string {
  const url = params
    ? path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
    : path;
  if (!query) return url;
  const search = Object.entries(query).flatMap(([name, value]) =>
    value === undefined ? [] : [`${name}=${encodeURIComponent(String(value))}`],
  );
  return search.length > 0 ? `${url}?${search.join('&')}` : url;
}

/** A client for the routes of `routeKeys`; with `session` hooks it sends the bearer token and reports a 401. */
export function createApiClient(routeKeys: ClientRouteKeys<'public'>): ApiClient<'public'>;
export function createApiClient(routeKeys: ClientRouteKeys<'session'>, session: SessionHooks): ApiClient;
export function createApiClient(
  routeKeys: Record<string, RouteKey>,
  session?: SessionHooks,
): ApiClient<Audience> {
  return {
    call: (id: string, ...args: unknown[]) => {
      const options = args.pop() as AnyCallOptions;
      const [method, path] = (routeKeys[id] as RouteKey).split(' ') as [string, string];
      return request(method, urlOf(path, options), options.response, args[0], options, session);
    },
  } as ApiClient<Audience>;
}

/** A JSON file the site serves beside the app (`/config.json`), not an API route: read like an answer. */
export function getSiteJson<T>(path: string, schema: z.ZodMiniType<T>): Promise<T> {
  return request('GET', path, schema, undefined, {}, undefined);
}
