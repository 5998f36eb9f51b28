// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '#web/app/routes.tsx';

function renderAt(path: string, routeObjects = routes) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('routes', () => {
  it('renders the home page with the hero and the waitlist inside the layout', async () => {
    renderAt('/');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'See where pathogens evolve next' }),
    ).toBeDefined();
    const waitlist = screen.getByRole('region', { name: 'Join the waitlist' });
    expect(within(waitlist).getByLabelText('Email address')).toBeDefined();
    expect(screen.getByRole('banner').textContent).toContain('Helix Forecast');
    expect(screen.getByRole('main')).toBeDefined();
    expect(screen.getByRole('contentinfo')).toBeDefined();
    const home = within(screen.getByRole('banner')).getByRole('link', { name: 'Helix Forecast home' });
    expect(home.getAttribute('href')).toBe('/');
  });

  it('renders the not-found page inside the layout for an unknown path', async () => {
    renderAt('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeDefined();
    expect(screen.getByRole('banner')).toBeDefined();
  });

  it('goes home from the not-found page', async () => {
    const user = userEvent.setup();
    const router = renderAt('/missing');

    await user.click(await screen.findByRole('link', { name: 'Go to the home page' }));

    expect(router.state.location.pathname).toBe('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'See where pathogens evolve next' }),
    ).toBeDefined();
  });

  it('keeps the layout and shows an error page when a page fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = routesWithLazy((path) =>
      path === '/' ? () => Promise.reject(new Error('chunk failed')) : undefined,
    );
    renderAt('/', failing);

    // The seed's words.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' }),
    ).toBeDefined();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeDefined();
  });
});

/** The app's routes with the lazy loader of one path replaced. */
function routesWithLazy(
  replace: (path: string | undefined) => (() => Promise<never>) | undefined,
): typeof routes {
  const clone = (route: (typeof routes)[number]): (typeof routes)[number] => {
    const lazy = replace(route.path);
    const copy = { ...route, ...(lazy ? { lazy } : {}) } as (typeof routes)[number];
    if (route.children) copy.children = route.children.map(clone);
    return copy;
  };
  return routes.map(clone);
}
