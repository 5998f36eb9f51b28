import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import {
  createStaticHandler,
  createStaticRouter,
  type RouteObject,
  StaticRouterProvider,
} from 'react-router';
import { routes } from './app/routes.tsx';
import { pageTitle, site } from './content/site.ts';
import { siteUrl } from './lib/site-url.ts';

// Built for Node by web/scripts/prerender.ts and run once per public route at build time.
export { buildLocale } from './config/locale.ts';
export { appPaths, isKnownPath, publicPaths, redirects } from './config/paths.ts';
export { localizedPublicPaths } from './config/site-paths.ts';
export { company } from './content/company.ts';
export { siteUrl };

export type RenderResult =
  | { kind: 'page'; status: number; html: string }
  | { kind: 'redirect'; location: string };

async function render(routeObjects: RouteObject[], path: string): Promise<RenderResult> {
  const handler = createStaticHandler(routeObjects);
  const context = await handler.query(new Request(new URL(path, siteUrl)));
  if (context instanceof Response) {
    return { kind: 'redirect', location: context.headers.get('Location') ?? '/' };
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  // hydrate={false}: no inline hydration-data script (CSP); the client resolves its lazy routes.
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  return { kind: 'page', status: context.statusCode, html: await new Response(prelude).text() };
}

export function renderRoute(path: string): Promise<RenderResult> {
  return render(routes, path);
}

/**
 * What an app route shows before the client has rendered it: the layout around a "Loading..."
 * status. Never hydrated (boot.tsx renders app routes afresh), so it is the server's alone.
 */
function AppShellPending() {
  return (
    <>
      <title>{pageTitle()}</title>
      <meta name="robots" content="noindex" />
      <p className="container app-shell-pending" role="status">
        {site.nav.loading}
      </p>
    </>
  );
}

/** The app shell page (`app.html`): the real layout route with the pending page as its only child. */
export function renderAppShell(): Promise<RenderResult> {
  const [layout] = routes;
  if (!layout || layout.index) throw new Error('entry-server: the first route is not the layout route');
  return render([{ ...layout, children: [{ path: '*', Component: AppShellPending }] }], '/');
}
