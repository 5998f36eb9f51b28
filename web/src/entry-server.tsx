import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { routes } from './app/routes.tsx';
import { siteUrl } from './lib/site-url.ts';

// Built for Node by web/scripts/prerender.ts and run once per public route at build time.
export { appPaths, publicPaths, redirects } from './app/paths.ts';
export { company } from './content/company.ts';
export { siteUrl };

export type RenderResult =
  | { kind: 'page'; status: number; html: string }
  | { kind: 'redirect'; location: string };

export async function renderRoute(path: string): Promise<RenderResult> {
  const handler = createStaticHandler(routes);
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
