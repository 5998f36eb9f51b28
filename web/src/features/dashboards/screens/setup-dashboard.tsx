import { lazy, Suspense, useRef, useState } from 'react';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { ThemeToggle } from '#web/components/theme-toggle.tsx';
import { dashboardsCopy } from '#web/content/dashboards.ts';
import { AccountCard } from '#web/features/dashboards/components/account-card.tsx';
import { IdentityCard } from '#web/features/dashboards/components/identity-card.tsx';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/dashboards.css';
import '#web/styles/consent-dialog.css';

// Loaded on the first "Provide Verification Consent", so the dashboard's own chunk stays small.
const ConsentDialog = lazy(() =>
  import('#web/components/consent-dialog.tsx').then((module) => ({ default: module.ConsentDialog })),
);

const copy = dashboardsCopy.setup;

// `/dashboard`: every signed-in user with a verified email lands here at some point. It says where
// onboarding stands and leads on from there; the facts come from `GET /api/me`, never the token.
// The verification consent is given here, in the dialog, without leaving the page (ADR 0086).
export function Component() {
  const { me, logout } = useSession();
  const [consentAsked, setConsentAsked] = useState(false);
  const [consentOpen, setConsentOpen] = useState(false);
  const nextAction = useRef<HTMLAnchorElement>(null);
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
        <IdentityCard
          me={me}
          actionRef={nextAction}
          onConsent={() => {
            setConsentAsked(true);
            setConsentOpen(true);
          }}
        />
        <AccountCard me={me} />
      </div>
      {consentAsked && (
        <Suspense fallback={null}>
          <ConsentDialog
            open={consentOpen}
            onClose={() => setConsentOpen(false)}
            onRecorded={() => {
              setConsentOpen(false);
              // The card now leads on to the verification: focus goes there, not to the body.
              requestAnimationFrame(() => nextAction.current?.focus());
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
