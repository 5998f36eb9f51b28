import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AppTitle } from '#web/components/app-title.tsx';
import { ConsentDialog } from '#web/components/consent-dialog.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { paths } from '#web/config/paths.ts';
import { kycCopy } from '#web/content/kyc.ts';
import { VerificationSteps } from '#web/features/kyc/components/verification-steps.tsx';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/kyc.css';
import '#web/styles/consent-dialog.css';

const copy = kycCopy.start;

// `/kyc/start`: where the user stands among the three steps (consent, verification, full access),
// the consent dialog, and the way on. The shell renders it only while KYC has not started.

export function Component() {
  const { me } = useSession();
  const navigate = useNavigate();
  const [dialogOpen, setDialogOpen] = useState(false);
  // Recorded in this visit even if the fresh `me` could not be loaded afterwards.
  const [recordedHere, setRecordedHere] = useState(false);
  const consentRecorded = me.consentRecorded || recordedHere;

  return (
    <section className="container app-screen prose kyc-screen">
      <AppTitle title={copy.title} />
      <ScreenHeading>{copy.title}</ScreenHeading>
      <p>{copy.intro}</p>
      <VerificationSteps current={consentRecorded ? 1 : 0} />
      <div className="app-actions">
        {consentRecorded ? (
          <Link className="button" to={paths.kycPersona.getHref()}>
            {copy.continue}
          </Link>
        ) : (
          <button type="button" className="button" onClick={() => setDialogOpen(true)}>
            {copy.provideConsent}
          </button>
        )}
        <Link className="button button--secondary" to={paths.userAccount.getHref()}>
          {copy.skip}
        </Link>
      </div>
      <p className="kyc-screen__note">{copy.skipNote}</p>
      <ConsentDialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        onRecorded={(fresh) => {
          setRecordedHere(true);
          // Straight on to verification once the server confirms the record (the guard of
          // /kyc/persona reads the same `me`); otherwise the Continue button stays here.
          if (fresh?.consentRecorded) navigate(paths.kycPersona.getHref());
        }}
      />
    </section>
  );
}
