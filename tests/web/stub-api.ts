import { vi } from 'vitest';

// The API as the web tests stub it: `fetch` answers only what a test says, and records the calls.

/** A JSON answer: `application/json` unless `headers` says otherwise. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** An error answer as the API sends it: `application/problem+json`. */
export function problemJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return json(status, body, { 'Content-Type': 'application/problem+json', ...headers });
}

/** A 400 problem with field errors. */
export function problem(errors: { field: string; message: string }[]): Response {
  return problemJson(400, { type: 'about:blank', title: 'Bad Request', status: 400, errors });
}

/** Stubs fetch for the API (and only the API) and records the calls. */
export function stubApi(answer: (url: string, init: RequestInit) => Promise<Response>) {
  const fetch = vi.fn((url: string, init: RequestInit) => answer(String(url), init));
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    /** The JSON bodies posted to `path`. */
    posted(path: string): unknown[] {
      return fetch.mock.calls
        .filter(([url]) => url === path)
        .map(([, init]) => JSON.parse(String(init.body)));
    },
  };
}
