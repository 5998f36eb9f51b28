import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuthKind, routes } from '#lambdas/routes.ts';

// The signed-in client sends the bearer token, the public one does not. This keeps each call on
// the right client: every API path the signed-in app calls is a `user` or `admin` route, and every
// path a public page calls is a `public` one.

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

function routeOf(apiPath: string): { auth: AuthKind } | undefined {
  return routes.find((route) => {
    const pattern = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(apiPath);
  });
}

const calls = files(webSrc)
  .filter((file) => /\.tsx?$/.test(file))
  .flatMap((file) => {
    const relative = path.relative(webSrc, file).split(path.sep).join('/');
    return apiPaths(readFileSync(file, 'utf8')).map((apiPath) => ({ file: relative, apiPath }));
  });

describe('API paths the web calls', () => {
  it('finds the calls (the scan works)', () => {
    expect(calls.some((call) => call.apiPath === '/api/me')).toBe(true);
    expect(calls.some((call) => call.apiPath === '/api/waitlist')).toBe(true);
  });

  it.each(calls.map((call) => [call.apiPath, call.file] as const))(
    '%s (in %s) is a route of the right kind',
    (apiPath, file) => {
      const route = routeOf(apiPath);
      expect(route, `${apiPath} is not in lambdas/routes.ts`).toBeDefined();
      const expected = signedIn.some((pattern) => pattern.test(file)) ? ['user', 'admin'] : ['public'];
      expect(expected).toContain(route?.auth);
    },
  );
});
