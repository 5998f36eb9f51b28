import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { isDecisionReasonCode } from '#contracts/kyc-reasons.ts';
import { AppTitle } from '#web/components/app-title.tsx';
import { ConsentDialog } from '#web/components/consent-dialog.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { useToast } from '#web/components/toast.tsx';
import { normalizePath, paths } from '#web/config/paths.ts';
import { reasonMessage } from '#web/content/decision-reasons.ts';
import { kycContacts, kycCopy } from '#web/content/kyc.ts';
import { isSessionEnd, startInquiry } from '#web/features/kyc/api/kyc-api.ts';
import { useDecisionWatch } from '#web/features/kyc/lib/decision-watch.ts';
import { isJustSubmitted } from '#web/features/kyc/lib/submission.ts';
import { approvedHome, journeyState, nextStep, type Segment } from '#web/lib/journey.ts';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/kyc.css';
import '#web/styles/consent-dialog.css';

const copy = kycCopy.status;

/** How long the approved screen shows before the dashboard opens. */
const approvedRedirectMs = 3000;

// `/auth/kyc-complete` (commercial and academic organizations) and `/auth/kyc-complete-defense`
// (defense and government): one module for both, told apart by the path. The status is the
// server's (`me` from the shell, refreshed through `refreshMe()` so the shell's `me` and the
// token's claims move together). While pending, the decision arrives by push, with polling only
// while the push channel is down (useDecisionWatch, ADR 0060).

// `withdrawn`: the verification was not decided and the person withdrew their consent, which
// stopped it at Persona (ADR 0075): it will not be decided (a submitted one is back to
// `not_started`), so the screen says why and offers the consent again instead of waiting.
type Shown = 'pending' | 'approved' | 'rejected' | 'withdrawn';

export function Component() {
  const { me, refreshMe, accessToken } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const segment: Segment =
    normalizePath(location.pathname) === paths.kycCompleteDefense.path ? 'defense' : 'commercial';
  const text = copy[segment];

  // Right after submitting, the webhook may not have arrived yet: `not_started` is then pending.
  const justSubmitted = useRef(isJustSubmitted(location.state)).current;
  const status: Exclude<Shown, 'withdrawn'> | undefined =
    me.kycStatus === 'not_started' ? (justSubmitted ? 'pending' : undefined) : me.kycStatus;
  // A submitted verification stopped by the withdrawal is back to `not_started` (its inquiry
  // redacted, ADR 0075): the screen still says why.
  const shown: Shown | undefined =
    me.consentWithdrawn && (status === 'pending' || me.kycStatus === 'not_started') ? 'withdrawn' : status;

  // The consent dialog stays mounted once offered: the fresh `me` it loads turns this screen back
  // to `pending` (or elsewhere) while the dialog is still closing.
  const [dialogOpen, setDialogOpen] = useState(false);
  const consentOffered = useRef(false);
  // A new attempt a reviewer allowed needs a standing consent too: "Verify again" would be refused.
  const consentFirst = shown === 'rejected' && me.kycNewAttemptAllowed && me.consentWithdrawn;
  if (shown === 'withdrawn' || consentFirst) consentOffered.current = true;

  const pending = shown === 'pending';
  useDecisionWatch({ pending, userId: me.userId, refresh: refreshMe, token: accessToken });

  const approved = shown === 'approved';
  const home = paths[approvedHome(segment)].getHref();
  useEffect(() => {
    if (!approved) return;
    const timer = setTimeout(() => navigate(home, { replace: true }), approvedRedirectMs);
    return () => clearTimeout(timer);
  }, [approved, home, navigate]);

  // Not submitted (or long ago, with no webhook since): the user's next step, not this screen.
  if (shown === undefined) return <Navigate to={paths[nextStep(journeyState(me))].getHref()} replace />;

  return (
    <section className={`container app-screen prose kyc-screen kyc-status kyc-status--${shown}`}>
      <AppTitle title={copy.title} />
      <span className="kyc-status__icon" aria-hidden="true">
        {shown === 'approved' ? '✓' : shown === 'rejected' || shown === 'withdrawn' ? '!' : '…'}
      </span>
      <ScreenHeading key={shown}>
        {shown === 'withdrawn' ? copy.withdrawn.heading : text[shown].heading}
      </ScreenHeading>
      <p>{shown === 'withdrawn' ? copy.withdrawn.body : text[shown].body}</p>
      {shown === 'withdrawn' && <Withdrawn onGiveConsent={() => setDialogOpen(true)} />}
      {shown === 'pending' && (
        <>
          <p>{text.pending.next}</p>
          <div className="app-actions">
            <Link className="button" to={paths.home.getHref()}>
              {copy.returnHome}
            </Link>
          </div>
        </>
      )}
      {shown === 'approved' && (
        <>
          <p role="status">{text.approved.redirect}</p>
          <div className="app-actions">
            <Link className="button" to={home} replace>
              {copy.goNow}
            </Link>
          </div>
        </>
      )}
      {shown === 'rejected' && <Rejected segment={segment} onGiveConsent={() => setDialogOpen(true)} />}
      {consentOffered.current && (
        <ConsentDialog
          open={dialogOpen}
          onClose={() => setDialogOpen(false)}
          onRecorded={(fresh) => {
            // Where the fresh status leads: /kyc/persona for a verification not submitted; this
            // screen (in progress) for a submitted one.
            const next = paths[nextStep(journeyState(fresh ?? me))].getHref();
            if (normalizePath(next) !== normalizePath(location.pathname)) navigate(next);
          }}
        />
      )}
    </section>
  );
}

/**
 * The way on after a withdrawal: the consent dialog of /kyc/start (the one way the product records
 * the consent), offered here because /kyc/start is only for a verification not yet submitted.
 */
function Withdrawn({ onGiveConsent }: { onGiveConsent: () => void }) {
  return (
    <div className="app-actions">
      <button type="button" className="button" onClick={onGiveConsent}>
        {copy.withdrawn.again}
      </button>
      <Link className="button button--secondary" to={paths.userAccount.getHref()}>
        {copy.withdrawn.account}
      </Link>
    </div>
  );
}

/**
 * The reason the person may read, and the way on: "Verify again" once a reviewer allowed a new
 * attempt (it starts the new inquiry, then opens it), otherwise the contact page.
 */
function Rejected({ segment, onGiveConsent }: { segment: Segment; onGiveConsent: () => void }) {
  const { me, api, refreshMe } = useSession();
  const navigate = useNavigate();
  const toast = useToast();
  const [starting, setStarting] = useState(false);
  const text = copy[segment].rejected;
  const address = segment === 'defense' ? kycContacts.defenseTeam : kycContacts.support;
  const attemptsLeft = me.kycAttempts.used < me.kycAttempts.max;

  async function verifyAgain() {
    if (starting) return;
    setStarting(true);
    try {
      await startInquiry(api);
      // The status is back to not_started with the new inquiry: /kyc/persona opens it.
      await refreshMe({ freshToken: true });
      navigate(paths.kycPersona.getHref());
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(copy.startAgainFailed);
      setStarting(false);
    }
  }

  return (
    <>
      {me.kycReason && (
        <p className="kyc-status__reason">
          <strong>{copy.reason}</strong>{' '}
          {isDecisionReasonCode(me.kycReason.code) ? reasonMessage(me.kycReason.code) : me.kycReason.message}
        </p>
      )}
      {me.kycAttempts.used > 0 && <p>{copy.attempts(me.kycAttempts.used, me.kycAttempts.max)}</p>}
      {me.kycNewAttemptAllowed ? (
        <p>{me.consentWithdrawn ? copy.withdrawn.consentFirst : copy.newAttemptAllowed}</p>
      ) : (
        !attemptsLeft && <p>{copy.noAttemptsLeft}</p>
      )}
      <div className="app-actions">
        {me.kycNewAttemptAllowed && me.consentWithdrawn && (
          <button type="button" className="button" onClick={onGiveConsent}>
            {copy.withdrawn.again}
          </button>
        )}
        {me.kycNewAttemptAllowed && !me.consentWithdrawn && (
          <button
            type="button"
            className="button"
            onClick={verifyAgain}
            disabled={starting}
            aria-busy={starting || undefined}
          >
            {starting ? copy.startingAgain : copy.verifyAgain}
          </button>
        )}
        <Link
          className={me.kycNewAttemptAllowed ? 'button button--secondary' : 'button'}
          to={paths.contact.getHref()}
        >
          {text.contact}
        </Link>
        <Link className="button button--secondary" to={paths.home.getHref()}>
          {copy.returnHome}
        </Link>
      </div>
      <p className="kyc-screen__note">
        {copy.contactAddress} <span className="kyc-screen__address">{address}</span>
      </p>
    </>
  );
}
