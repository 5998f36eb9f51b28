import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { errors } from '../content/errors.ts';
import { pageTitle } from '../content/site.ts';
import { NotFoundPage } from './not-found-page.tsx';
import { paths } from './paths.ts';

/** Shown inside the layout when a route fails to load or render. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
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
