import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuthKind, routes } from '#lambdas/routes.ts';

// The signed-in client sends the bearer token, the public one does not. This keeps each call on
// the right client: every API path the signed-in app calls with the session's client is a `user` or
// `admin` route, and every path called with the public client (`api` from #web/lib/api-client.ts,
// on a public page or from a signed-in screen, e.g. the account's data-deletion request) is a
// `public` one.

const webSrc = path.resolve('web/src');
const signedIn = [/^features\/(auth|kyc|dashboards|account|admin)\//, /^app\/app-layout\.tsx$/];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** `'/api/me'` and `` `/api/admin/verifications/${id}/decision` `` as written in the source. */
function apiPaths(source: string): string[] {
  return [...source.matchAll(/['`](\/api\/[^'`?]*)/g)].map((match) =>
    (match[1] ?? '').replace(/\$\{[^}]+\}/g, '{}'),
  );
}

/** The file imports the public client (`api`); such a file must not also use the session's one. */
const publicClientImport = /import\s*\{[^}]*\bapi\b[^}]*\}\s*from\s*'#web\/lib\/api-client\.ts'/;
const sessionClientUse = /\buseSession\b|\bApiClient\b|\bcreateApiClient\b/;

function routeOf(apiPath: string): { auth: AuthKind } | undefined {
  return routes.find((route) => {
    const pattern = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(apiPath);
  });
}

const sources = files(webSrc)
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => ({
    file: path.relative(webSrc, file).split(path.sep).join('/'),
    source: readFileSync(file, 'utf8'),
  }));

const calls = sources.flatMap(({ file, source }) => {
  const client =
    publicClientImport.test(source) || !signedIn.some((pattern) => pattern.test(file)) ? 'public' : 'session';
  return apiPaths(source).map((apiPath) => ({ file, apiPath, client }));
});

describe('API paths the web calls', () => {
  it('finds the calls (the scan works)', () => {
    expect(calls.some((call) => call.apiPath === '/api/me')).toBe(true);
    expect(calls.some((call) => call.apiPath === '/api/waitlist')).toBe(true);
  });

  it('never mixes the two clients in one file (the file decides which client its paths go to)', () => {
    const mixed = sources
      .filter(({ source }) => publicClientImport.test(source) && sessionClientUse.test(source))
      .map(({ file }) => file);
    expect(mixed).toEqual([]);
  });

  it.each(calls.map((call) => [call.apiPath, call.file, call.client] as const))(
    '%s (in %s, %s client) is a route of the right kind',
    (apiPath, _file, client) => {
      const route = routeOf(apiPath);
      expect(route, `${apiPath} is not in lambdas/routes.ts`).toBeDefined();
      const expected = client === 'session' ? ['user', 'admin'] : ['public'];
      expect(expected).toContain(route?.auth);
    },
  );
});
