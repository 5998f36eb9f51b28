import { useLocation } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { appRoute } from '#web/content/app-route.ts';

// The lazy module behind every app route (/auth/callback, /dashboard, ...): rendered on the client
// from the fallback page, never prerendered. The sign-in issue replaces it with the session check
// and the real screens; it is the place where the auth provider joins the tree.
export function Component() {
  const { pathname } = useLocation();
  return (
    <section className="container prose">
      <Seo title={appRoute.title} description={appRoute.body} path={pathname} noindex />
      <h1>{appRoute.title}</h1>
      <p>{appRoute.body}</p>
    </section>
  );
}
