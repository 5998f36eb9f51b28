import { startTransition } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { normalizePath } from '#web/config/paths.ts';
import { hydrationStarts } from '#web/lib/hydrated.ts';
import { App } from './index.tsx';
import { routes } from './routes.tsx';

// Starts React on a page. A prerendered page is hydrated where it was made for the URL, and so is
// the not-found page (404.html) at any URL the client routes do not know either. Anything else is
// rendered afresh: the app shell (app.html) at an app route, or HTML made for another URL.

const routeKeys = [
  'Component',
  'ErrorBoundary',
  'HydrateFallback',
  'loader',
  'action',
  'handle',
  'shouldRevalidate',
] as const;

/**
 * Loads the lazy modules of the routes matching the URL before React starts, so the first client
 * render shows the same page as the HTML (no fallback render, no hydration mismatch).
 */
export async function resolveLazyRoutes(
  routeObjects: RouteObject[],
  pathname: string,
  nextTask: () => Promise<void>,
): Promise<void> {
  const matches = matchRoutes(routeObjects, pathname) ?? [];
  // Matching ranks every route; importing then links and compiles the page's files: two tasks.
  await nextTask();
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const module = (await route.lazy()) as Record<string, unknown>;
      const target = route as Record<string, unknown>;
      for (const key of routeKeys) if (module[key] !== undefined) target[key] = module[key];
      route.lazy = undefined;
    }),
  );
}

/** Head tags the prerender wrote for the page this HTML was made for. */
const prerenderedHead =
  'title, meta[name="description"], meta[name="robots"], link[rel="canonical"], meta[property^="og:"], meta[name^="twitter:"]';

/**
 * Starts React on this page with React DOM (imported by main.tsx, in the task before this module's)
 * and `nextTask`, which ends the current task so the page module and hydration each start in a
 * task of their own.
 */
export async function boot(
  { createRoot, hydrateRoot }: typeof import('react-dom/client'),
  nextTask: () => Promise<void>,
): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('the page has no #root element');
  const html = document.documentElement;
  const madeFor = html.dataset.prerendered;
  const here = normalizePath(window.location.pathname);

  await nextTask();
  await resolveLazyRoutes(routes, window.location.pathname, nextTask);
  await nextTask();
  const router = createBrowserRouter(routes);
  await nextTask();
  // 404.html says `data-prerendered=""` (web/scripts/prerender.ts `notFoundPrerendered`).
  const notFound =
    madeFor === '' && matchRoutes(routes, window.location.pathname)?.at(-1)?.route.path === '*';

  if (madeFor === here || notFound) {
    // The not-found page's head tags name the path it was rendered at; React writes this URL's.
    if (notFound) for (const tag of document.head.querySelectorAll(prerenderedHead)) tag.remove();
    // As a transition, React hydrates in slices of about 5 ms and yields between them (ADR 0044).
    hydrationStarts();
    startTransition(() => {
      hydrateRoot(container, <App router={router} />);
    });
    return;
  }
  for (const tag of document.head.querySelectorAll(prerenderedHead)) tag.remove();
  // Stale HTML is hidden (data-stale) and goes now; the app shell stays visible until React's
  // first commit replaces it, so its header and footer do not blink.
  if (html.dataset.stale !== undefined) container.replaceChildren();
  delete html.dataset.stale;
  createRoot(container).render(<App router={router} />);
}
