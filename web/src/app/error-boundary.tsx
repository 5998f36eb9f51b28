import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { errors } from '#web/content/errors.ts';
import { pageTitle } from '#web/content/site.ts';

// A 404 here (a loader answering 404) shows the catch-all route's page: one page, one copy, the
// same head tags (noindex), and the same lazy chunk, so it stays out of every page's initial JS.
const NotFoundPage = lazy(() => import('#web/pages/not-found.tsx'));

/** Shown inside the layout when a route fails to load or render. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Suspense fallback={null}>
        <NotFoundPage />
      </Suspense>
    );
  }
  console.error(error);

  return (
    <section className="container prose">
      <title>{pageTitle(errors.unexpected.title)}</title>
      <h1>{errors.unexpected.title}</h1>
      <p>{errors.unexpected.body}</p>
      <p>
        <Link to={paths.home.getHref()}>{errors.unexpected.home}</Link>
      </p>
    </section>
  );
}
