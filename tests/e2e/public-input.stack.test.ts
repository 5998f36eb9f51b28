import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { problemContentType } from '#contracts/problem.ts';
import { routes } from '#lambdas/routes.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';

// Whatever an anonymous caller sends to a public route, the answer is a 2xx or a 4xx problem, never
// a 5xx, and a refused request writes nothing anywhere.

const stack = inject('stack');
const db = stackDb(stack);
const runs = Number(process.env.INPUT_PROPERTY_RUNS ?? 25);

const handlerExists = (name: string) =>
  existsSync(new URL(`../../lambdas/handlers/${name}.ts`, import.meta.url));
const publicRoutes = routes.filter((route) => route.auth === 'public');
const missing = publicRoutes.filter((route) => !handlerExists(route.handler));
const publicPosts = publicRoutes.filter((route) => route.method === 'POST' && handlerExists(route.handler));
const publicGets = publicRoutes.filter((route) => route.method === 'GET' && handlerExists(route.handler));

/** The keys each public form knows, so generated objects hit real fields as well as unknown ones. */
const knownKeys: Record<string, string[]> = {
  '/api/registrations': [
    'responsibleName',
    'responsibleTitle',
    'responsibleEmail',
    'responsiblePhone',
    'organizationName',
    'organizationUrl',
    'organizationType',
    'termsAgreed',
    'privacyAgreed',
    'nonHarmAgreed',
    'website',
  ],
  '/api/waitlist': ['email'],
  '/api/investor-inquiries': ['name', 'email', 'organization', 'message'],
  '/api/contact': ['name', 'email', 'organization', 'message'],
  '/api/data-deletion-requests': ['email', 'name', 'details'],
  '/api/data-deletion-requests/confirm': ['token'],
  '/api/cookie-consents': ['consentId', 'analytics', 'marketing', 'personalization', 'revision'],
};

const plausibleValue = fc.oneof(
  fc.jsonValue(),
  fc.emailAddress(),
  fc.constantFrom('ada@gmail.com', 'x@quantum-bio.example', '', ' ', 'commercial', 'https://example.org'),
  fc.boolean(),
  fc.uuid(),
  fc.string({ maxLength: 300 }),
);

function bodies(path: string): fc.Arbitrary<string> {
  const keys = knownKeys[path] ?? [];
  const withKeys =
    keys.length > 0
      ? fc.record(Object.fromEntries(keys.map((key) => [key, plausibleValue])), { requiredKeys: [] })
      : fc.constant({});
  const withUnknownKeys = fc
    .tuple(
      withKeys,
      fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), fc.jsonValue(), { maxKeys: 3 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known }));
  return fc.oneof(
    fc.json(),
    fc.anything().map((value) => {
      try {
        return JSON.stringify(value) ?? '';
      } catch {
        return '';
      }
    }),
    withKeys.map((value) => JSON.stringify(value)),
    withUnknownKeys.map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 200 }),
  );
}

async function itemCounts(): Promise<Record<string, number>> {
  // Deliveries of events from earlier requests may still be writing: wait for them first.
  await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });
  const counts: Record<string, number> = {};
  for (const table of ['ConsentLedger', 'KycState', 'Submissions'])
    counts[table] = (await db.scan(table)).length;
  return counts;
}

async function expectSensibleAnswer(response: Response): Promise<void> {
  const status = response.status;
  const text = await response.text();
  expect(status, text).toBeLessThan(500);
  expect(status).toBeGreaterThanOrEqual(200);
  if (status >= 400) {
    expect(response.headers.get('content-type')).toBe(problemContentType);
    expect((JSON.parse(text) as { status: number }).status).toBe(status);
  }
}

describe('public routes under arbitrary input', () => {
  it('has a handler for every public route', () => {
    // Routes without a handler yet are skipped below; this names them.
    expect(missing.map((route) => route.id)).toEqual([]);
  });

  it.each(publicPosts.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 2xx or a 4xx problem, and writes nothing when it refuses',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(bodies(route.path), async (body) => {
          const before = await itemCounts();
          const response = await fetch(`${stack.web}${route.path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          await expectSensibleAnswer(response);
          if (response.status >= 400) expect(await itemCounts()).toEqual(before);
        }),
        { numRuns: runs },
      );
    },
  );

  it.each(publicGets.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 200 whatever the query string',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 30 })),
          async (query) => {
            const response = await fetch(`${stack.web}${route.path}?${new URLSearchParams(query)}`);
            await expectSensibleAnswer(response);
            expect(response.status).toBe(200);
          },
        ),
        { numRuns: runs },
      );
    },
  );

  it.each(publicPosts.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 413 to a 100 KiB body and writes nothing',
    async (_name, route) => {
      const before = await itemCounts();
      const response = await fetch(`${stack.web}${route.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@quantum-bio.example', padding: 'x'.repeat(100 * 1024) }),
      });
      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toBe(problemContentType);
      expect(await itemCounts()).toEqual(before);
    },
  );
});
