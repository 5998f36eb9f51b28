// The only module that calls fetch. Answers are validated against their contract schema, and every
// failure (problem+json, another error status, a network error, an unexpected body) is an ApiError.

import type * as z from 'zod/mini';
import { type FieldError, problem, problemContentType } from '#contracts/problem.ts';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived (network failure, aborted request). */
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: readonly FieldError[];

  constructor(init: { status: number; title: string; detail?: string; errors?: readonly FieldError[] }) {
    super(init.detail ? `${init.title}: ${init.detail}` : init.title);
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
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

async function request<T>(
  method: string,
  path: string,
  schema: z.ZodMiniType<T>,
  body: unknown,
  options: RequestOptions,
): Promise<T> {
  const headers: Record<string, string> = {
    Accept: `application/json, ${problemContentType}`,
    ...options.headers,
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

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

function toApiError(response: Response, data: unknown): ApiError {
  const isProblem = response.headers.get('Content-Type')?.startsWith(problemContentType) ?? false;
  const parsed = isProblem ? problem.safeParse(data) : undefined;
  if (parsed?.success) {
    const { title, detail, errors } = parsed.data;
    return new ApiError({ status: response.status, title, detail, errors });
  }
  return new ApiError({ status: response.status, title: response.statusText || 'Request failed' });
}

export const api = {
  get<T>(path: string, schema: z.ZodMiniType<T>, options: RequestOptions = {}): Promise<T> {
    return request('GET', path, schema, undefined, options);
  },
  post<T>(path: string, body: unknown, schema: z.ZodMiniType<T>, options: RequestOptions = {}): Promise<T> {
    return request('POST', path, schema, body, options);
  },
};
