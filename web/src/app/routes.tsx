import type { RouteObject } from 'react-router';
import { RouteErrorBoundary } from './error-boundary.tsx';
import { RootLayout } from './layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { paths } from './paths.ts';

// The layout is eager (every page needs it); each page is its own lazy chunk. The pathless child
// catches page errors inside the layout; the root boundary only sees a failing layout.
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: () => null,
    children: [
      {
        ErrorBoundary: RouteErrorBoundary,
        children: [
          { path: paths.home.path, lazy: () => import('./routes/home.tsx') },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];
