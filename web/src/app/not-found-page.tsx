import { Link } from 'react-router';
import { errors } from '../content/errors.ts';
import { pageTitle } from '../content/site.ts';
import { paths } from './paths.ts';

/** Eager, not a lazy route: the error boundary shows it for 404s too, and it is small. */
export function NotFoundPage() {
  return (
    <section className="container prose">
      <title>{pageTitle(errors.notFound.title)}</title>
      <h1>{errors.notFound.title}</h1>
      <p>{errors.notFound.body}</p>
      <p>
        <Link to={paths.home.getHref()}>{errors.notFound.home}</Link>
      </p>
    </section>
  );
}
