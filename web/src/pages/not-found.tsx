import { Link, useLocation } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { notFound } from '#web/content/pages/not-found.ts';

/** The catch-all route's page; the error boundary also shows it (default export, for `lazy()`). */
export function Component() {
  const { pathname } = useLocation();
  return (
    <>
      <Seo title={notFound.meta.title} description={notFound.meta.description} path={pathname} noindex />
      <div className="container prose page-body">
        <h1>{notFound.title}</h1>
        <p>{notFound.body}</p>
        <p>
          <Link to={paths.home.getHref()}>{notFound.home}</Link>
        </p>
      </div>
    </>
  );
}

export default Component;
