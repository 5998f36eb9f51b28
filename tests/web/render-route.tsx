import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes } from '#web/app/routes.tsx';

// Pages are tested through the real route table and layout (toasts, cookie banner, nav), so a
// page that is not routed, or that needs a provider the layout lacks, fails here.

/** Mounts the real routes (layout, nav, footer, cookie banner, toasts) at `path`. */
export function renderRoute(path: string, routeObjects = routes) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  const view = render(<RouterProvider router={router} />);
  return { router, ...view };
}

/** `renderRoute`, then waits for the page's h1; queries are scoped to <main>. */
export async function renderPage(path: string) {
  const user = userEvent.setup();
  const { router } = renderRoute(path);
  const main = await screen.findByRole('main');
  await within(main).findByRole('heading', { level: 1 });
  return { router, user, main: within(main), mainElement: main };
}
