import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { dashboardsCopy } from '#web/content/dashboards.ts';
import { AccountCard } from '#web/features/dashboards/components/account-card.tsx';
import { IdentityCard } from '#web/features/dashboards/components/identity-card.tsx';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/dashboards.css';

const copy = dashboardsCopy.setup;

// `/dashboard`: where onboarding stands for a signed-in user with a verified email who is not
// approved yet, and the one way on from there (an approved user is sent to their segment's
// dashboard, ADR 0085); the facts come from `GET /api/me`, never the token.
export function Component() {
  const { me } = useSession();
  return (
    <section className="container app-screen dashboard">
      <AppTitle title={copy.title} />
      {/* The theme and Log Out are the header's, as on every page (ADR 0085). */}
      <ScreenHeading>{copy.welcome(me.name)}</ScreenHeading>
      <p className="dashboard__lead">{copy.lead}</p>
      <div className="app-grid">
        <IdentityCard me={me} />
        <AccountCard me={me} />
      </div>
    </section>
  );
}
