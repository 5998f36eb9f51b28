import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import type { MeResponse } from '#contracts/me.ts';
import { paths } from '#web/config/paths.ts';
import { accountCopy } from '#web/content/account.ts';
import { journeyState, nextStep } from '#web/lib/journey.ts';

const copy = accountCopy.consents.withdrawnNotice;

// What stands after a withdrawal of the identity-verification consent (GDPR Art. 7(3) and 13(2)(a):
// what is kept, why and until when; ADR 0075). Shown while the person's newest record is a
// withdrawal, after a reload too, not only in the dialog before it. A decided verification's
// evidence is kept by law; an undecided one was stopped, and the way to consent again is the
// journey's next step (/kyc/start, or the status screen while a submitted verification stands).
export function WithdrawnConsentNotice({
  me,
  justWithdrawn,
}: {
  me: MeResponse;
  /** Withdrawn a moment ago on this page: the button that opened the dialog is gone, the notice takes the focus. */
  justWithdrawn: boolean;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (justWithdrawn) heading.current?.focus();
  }, [justWithdrawn]);
  const decided = me.kycStatus === 'approved' || me.kycStatus === 'rejected';
  const stoppedOne = !decided && (me.kycStatus === 'pending' || me.kycAttempts.used > 0);
  return (
    <section aria-labelledby={headingId} className="withdrawn-notice">
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {copy.heading}
      </h3>
      <p>{copy.stopped}</p>
      {decided && <p>{copy.decided}</p>}
      {stoppedOne && <p>{copy.undecided}</p>}
      <p>{copy.consentRecords}</p>
      {!decided && (
        <p>
          <Link to={paths[nextStep(journeyState(me))].getHref()}>{copy.again}</Link>
        </p>
      )}
    </section>
  );
}
