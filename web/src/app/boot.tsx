import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { App } from './index.tsx';
import { normalizePath } from './paths.ts';
import { routes } from './routes.tsx';

// Starts React on a page. A prerendered page is hydrated; the fallback page (which holds the
// prerendered home) is rendered afresh when it answers another URL: an app route or a 404.

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
export async function resolveLazyRoutes(routeObjects: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routeObjects, pathname) ?? [];
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

export async function boot(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('the page has no #root element');
  const html = document.documentElement;
  const madeFor = html.dataset.prerendered;
  const here = normalizePath(window.location.pathname);

  await resolveLazyRoutes(routes, window.location.pathname);
  const router = createBrowserRouter(routes);

  if (madeFor === here) {
    hydrateRoot(container, <App router={router} />);
    return;
  }
  for (const tag of document.head.querySelectorAll(prerenderedHead)) tag.remove();
  container.replaceChildren();
  delete html.dataset.stale;
  createRoot(container).render(<App router={router} />);
}
