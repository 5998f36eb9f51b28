import { describe, expect, it } from 'vitest';
import { initialJsBudget, measureJs, measureSignedIn, webBudgets } from '#scripts/bench/web.ts';
import { locales } from '#web/config/locale.ts';
import { localizedPublicPaths } from '#web/config/site-paths.ts';

// Issue 13's deterministic web budgets on the production build the stack project's setup makes
// (no timings: Lighthouse runs in `npm run bench`, never here): initial JS of `/` <= 110 KiB and
// of `/register` <= 125 KiB (gzip of what the page fetches), no @auth0/* or persona byte on any
// public route, everything `/kyc/persona` fetches <= 200 KiB, exactly one Auth0 SDK copy. Each
// language is its own build (ADR 0089): every budget holds for the English and the German pages.

describe('web bundles', () => {
  it('public routes: initial JS within budget and no SDK bytes', async () => {
    const rows = await measureJs();
    expect(rows.map((row) => row.path)).toEqual(localizedPublicPaths.map((entry) => entry.path));
    const over = rows
      .filter((row) => row.gzip > initialJsBudget(row.path))
      .map((row) => `${row.path}: ${(row.gzip / 1024).toFixed(1)} KiB`);
    expect(over).toEqual([]);
    // The budgeted routes load something: a zero would mean the chunk walk found nothing.
    for (const path of ['/', '/register', '/de', '/de/register'])
      expect(rows.find((row) => row.path === path)?.gzip).toBeGreaterThan(50 * 1024);
    expect(
      rows.filter((row) => row.forbidden.length > 0).map((row) => `${row.path}: ${row.forbidden.join(', ')}`),
    ).toEqual([]);
  });

  it('public routes: only the pages with a form load the schema library', async () => {
    // Evaluating zod's schemas is a long task on a phone; a legal text that merely quotes a
    // deadline from a contract module once paid it on every visit (ADR 0044).
    const rows = await measureJs();
    const withForms = ['/investors', '/contact', '/data-deletion', '/data-deletion/confirm', '/register'];
    expect(rows.filter((row) => row.schemas).map((row) => row.path)).toEqual([
      ...withForms,
      ...withForms.map((path) => `/de${path}`),
    ]);
  });

  it.each(locales)(
    'signed-in routes (%s): /kyc/persona within budget, persona only there, one Auth0 SDK copy',
    async (locale) => {
      const { routes, auth0Copies, auth0Chunks } = await measureSignedIn(undefined, locale);
      const kyc = routes.find((route) => route.path === '/kyc/persona');
      expect(kyc?.gzip).toBeLessThanOrEqual(webBudgets.kycPersonaJsGzipBytes);
      expect(kyc?.persona).toBe(true);
      expect(
        routes.filter((route) => route.path !== '/kyc/persona' && route.persona).map((route) => route.path),
      ).toEqual([]);
      expect(auth0Copies, auth0Chunks.join(', ')).toBe(1);
    },
  );
});
