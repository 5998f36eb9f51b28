// The only module that calls fetch. Answers are validated against their contract schema, and every
// failure (problem+json, another error status, a network error, an unexpected body) is an ApiError
// that keeps the problem `type`, so a screen can tell one refusal from another.
//
// `api` serves the public routes. The signed-in app builds its own client with
// `createApiClient({ getAccessToken, onUnauthorized })` (web/src/app/app-layout.tsx): it sends the
// bearer token (the `user` and `admin` routes; tests/web/lib/api-routes.test.ts checks that every path
// the signed-in screens call is one of those) and turns a 401 into the session-expired path.

import type * as z from 'zod/mini';
import { type FieldError, problem, problemContentType } from '#contracts/problem.ts';

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
  /** The API answered 401: the token was refused, so the session is over. */
  onUnauthorized(): void;
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
  if (response.status === 401) session?.onUnauthorized();
  if (!response.ok) throw toApiError(response, data);

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

export interface ApiClient {
  get<T>(path: string, schema: z.ZodMiniType<T>, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body: unknown, schema: z.ZodMiniType<T>, options?: RequestOptions): Promise<T>;
}

/** A client; with `session` hooks it sends the bearer token and reports a 401. */
export function createApiClient(session?: SessionHooks): ApiClient {
  return {
    get: (path, schema, options = {}) => request('GET', path, schema, undefined, options, session),
    post: (path, body, schema, options = {}) => request('POST', path, schema, body, options, session),
  };
}

/** The public routes' client (no token). */
export const api: ApiClient = createApiClient();
