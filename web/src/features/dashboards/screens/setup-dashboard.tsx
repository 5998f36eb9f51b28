import { lazy, Suspense, useRef, useState } from 'react';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
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

// `/dashboard`: where onboarding stands for a signed-in user with a verified email who is not
// approved yet, and the one way on from there (an approved user is sent to their segment's
// dashboard, ADR 0085); the facts come from `GET /api/me`, never the token. The verification
// consent is given here, in the dialog, without leaving the page (ADR 0086).
export function Component() {
  const { me } = useSession();
  const [consentAsked, setConsentAsked] = useState(false);
  const [consentOpen, setConsentOpen] = useState(false);
  const nextAction = useRef<HTMLAnchorElement>(null);
  return (
    <section className="container app-screen dashboard">
      <AppTitle title={copy.title} />
      {/* The theme and Log Out are the header's, as on every page (ADR 0085). */}
      <ScreenHeading>{copy.welcome(me.name)}</ScreenHeading>
      <p className="dashboard__lead">{copy.lead}</p>
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
