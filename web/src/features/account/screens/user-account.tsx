import { Link } from 'react-router';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { paths } from '#web/config/paths.ts';
import { accountCopy } from '#web/content/account.ts';
import { ConsentHistory } from '#web/features/account/components/consent-history.tsx';
import { DataExport } from '#web/features/account/components/data-export.tsx';
import { DeletionRequest } from '#web/features/account/components/deletion-request.tsx';
import { ProfileCard } from '#web/features/account/components/profile-card.tsx';
import { journeyState, nextStep } from '#web/lib/journey.ts';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/account.css';

const copy = accountCopy;

// `/user-account`: open to every signed-in user, wherever they are in onboarding ("Skip for now"
// on /kyc/start leads here), so it also offers the way back into the journey.
export function Component() {
  const { me, logout } = useSession();
  const next = nextStep(journeyState(me));
  const nextLabel =
    next === 'commercialDashboard' || next === 'defenseDashboard'
      ? copy.next.dashboard
      : next === 'adminVerification'
        ? copy.next.admin
        : copy.next.onboarding;

  return (
    <section className="container app-screen account">
      <AppTitle title={copy.title} />
      <div className="account-header">
        <ScreenHeading>{copy.title}</ScreenHeading>
        <div className="account-header__tools">
          <Link className="button button--secondary" to={paths[next].getHref()}>
            {nextLabel}
          </Link>
          <button type="button" className="button button--secondary" onClick={logout}>
            {copy.logOut}
          </button>
        </div>
      </div>
      <ProfileCard me={me} />
      <ConsentHistory />
      <DataExport />
      <DeletionRequest email={me.email} />
    </section>
  );
}
