import { Link } from 'react-router';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { paths } from '#web/config/paths.ts';
import { signInCopy } from '#web/content/sign-in.ts';

const copy = signInCopy.registrationSuccess;

/** `/registration-success`: the end of onboarding, with the way on. */
export function Component() {
  return (
    <section className="container app-screen prose">
      <AppTitle title={copy.title} />
      <ScreenHeading>{copy.title}</ScreenHeading>
      <p>{copy.body}</p>
      <div className="app-actions">
        <Link className="button" to={paths.dashboard.getHref()}>
          {copy.dashboard}
        </Link>
        <Link className="button button--secondary" to={paths.home.getHref()}>
          {copy.home}
        </Link>
      </div>
    </section>
  );
}
