import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes } from '#web/app/routes.tsx';

/** Mounts the real routes (layout, nav, footer, cookie banner, toasts) at `path`. */
export function renderRoute(path: string, routeObjects = routes) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  const view = render(<RouterProvider router={router} />);
  return { router, ...view };
}
