// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { data, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoute } from '#tests/web/render-route.tsx';
import { routes } from '#web/app/routes.tsx';

// One 404 page, whether the catch-all route shows it or the error boundary does (a loader that
// answers 404): the same heading, copy and head tags, and never indexed.

afterEach(cleanup);

const Nothing = () => null;

/** The app's routes plus one page whose loader answers 404. */
function withMissingRecord(): RouteObject[] {
  const [root] = routes;
  const [pages] = root?.children ?? [];
  if (!root || !pages || root.index || pages.index) throw new Error('unexpected route tree');
  const gone: RouteObject = {
    path: '/records/gone',
    loader: () => {
      throw data(null, { status: 404 });
    },
    Component: Nothing,
  };
  return [{ ...root, children: [{ ...pages, children: [gone, ...(pages.children ?? [])] }] }];
}

async function notFoundPage() {
  await screen.findByRole('heading', { level: 1, name: 'Page not found' });
  const head = (selector: string) => document.head.querySelector(selector)?.getAttribute('content');
  return {
    title: document.title,
    description: head('meta[name="description"]'),
    robots: head('meta[name="robots"]'),
    canonical: document.head.querySelector('link[rel="canonical"]'),
    body: screen.getByRole('main').textContent,
  };
}

describe('404', () => {
  it('renders the same noindex page from the catch-all route and from the error boundary', async () => {
    renderRoute('/no/such/page');
    const fromRoute = await notFoundPage();
    cleanup();

    renderRoute('/records/gone', withMissingRecord());
    const fromBoundary = await notFoundPage();

    expect(fromRoute.robots).toBe('noindex');
    expect(fromRoute.canonical).toBeNull();
    expect(fromRoute.description).toMatch(/does not exist/);
    expect(fromBoundary).toEqual(fromRoute);
  });
});
