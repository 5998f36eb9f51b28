import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { ThemeToggle } from '#web/components/theme-toggle.tsx';
import { dashboardsCopy } from '#web/content/dashboards.ts';
import { AccountCard } from '#web/features/dashboards/components/account-card.tsx';
import { IdentityCard } from '#web/features/dashboards/components/identity-card.tsx';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/dashboards.css';

const copy = dashboardsCopy.setup;

// `/dashboard`: every signed-in user with a verified email lands here at some point. It says where
// onboarding stands and leads on from there; the facts come from `GET /api/me`, never the token.
export function Component() {
  const { me, logout } = useSession();
  return (
    <section className="container app-screen dashboard">
      <AppTitle title={copy.title} />
      <div className="dashboard-header">
        <div>
          <ScreenHeading>{copy.welcome(me.name)}</ScreenHeading>
          <p className="dashboard__lead">{copy.lead}</p>
        </div>
        <div className="dashboard-header__tools">
          <ThemeToggle />
          <button type="button" className="button button--secondary" onClick={logout}>
            {copy.logOut}
          </button>
        </div>
      </div>
      <div className="app-grid">
        <IdentityCard me={me} />
        <AccountCard me={me} />
      </div>
    </section>
  );
}
