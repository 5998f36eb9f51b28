import { type Ref, useId } from 'react';
import { Link } from 'react-router';
import type { MeResponse } from '#contracts/me.ts';
import { paths } from '#web/config/paths.ts';
import { dashboardsCopy } from '#web/content/dashboards.ts';
import { segmentOf, statusScreen } from '#web/lib/journey.ts';

const copy = dashboardsCopy.setup;

// Where the user's identity verification stands, and the one way on from there. Only an approved
// user opens a segment dashboard; a user who has not submitted yet is sent to consent (or, with
// consent recorded, to the verification itself); pending and rejected users to their status
// screen, which polls for the decision or explains how to contact us. The consent is given here,
// in the dialog `onConsent` opens (ADR 0086); `actionRef` is the way on, for focus afterwards.
export function IdentityCard({
  me,
  onConsent,
  actionRef,
}: {
  me: MeResponse;
  onConsent: () => void;
  actionRef?: Ref<HTMLAnchorElement>;
}) {
  const headingId = useId();
  const segment = segmentOf(me.organizationType);
  const state = identityState(me);
  const text = copy.identity[state];

  return (
    <section aria-labelledby={headingId} className="app-card identity-card" data-state={state}>
      <h2 id={headingId}>{text.heading}</h2>
      <p>{text.body}</p>
      <p className="identity-card__action">
        {state === 'approved' && (
          <Link
            className="button"
            to={paths[segment === 'defense' ? 'defenseDashboard' : 'commercialDashboard'].getHref()}
          >
            {copy.openSegment[segment]}
          </Link>
        )}
        {state === 'notStarted' && (
          <button type="button" className="button" onClick={onConsent}>
            {copy.identity.notStarted.consent}
          </button>
        )}
        {state === 'consentGiven' && (
          <Link className="button" to={paths.kycPersona.getHref()} ref={actionRef}>
            {copy.identity.consentGiven.verify}
          </Link>
        )}
        {(state === 'pending' || state === 'rejected') && (
          <Link className="button button--secondary" to={paths[statusScreen(segment)].getHref()}>
            {copy.identity[state].status}
          </Link>
        )}
      </p>
    </section>
  );
}

type IdentityState = keyof typeof copy.identity;

function identityState(me: MeResponse): IdentityState {
  switch (me.kycStatus) {
    case 'approved':
      return 'approved';
    case 'pending':
      return 'pending';
    case 'rejected':
      return 'rejected';
    case 'not_started':
      return me.consentRecorded ? 'consentGiven' : 'notStarted';
  }
}
