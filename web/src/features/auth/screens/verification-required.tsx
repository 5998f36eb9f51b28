import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { verificationEmailResponse } from '#contracts/verification-email.ts';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { useToast } from '#web/components/toast.tsx';
import { paths } from '#web/config/paths.ts';
import { signInCopy } from '#web/content/sign-in.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/session.ts';

const copy = signInCopy.verifyEmail;

// `/verification-required` (Verify Your Email). The verification email goes out once when the
// screen opens, silently (the backend allows one a minute, so a quick reload costs nothing).
// "I've Verified My Email" asks the server again with a fresh token, so the new `email_verified`
// reaches both `GET /api/me` and the API's token checks. Returning to this tab re-checks silently.

export function Component() {
  const { api, me, refreshMe, logout } = useSession();
  const toast = useToast();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'check' | 'resend' | null>(null);
  const sentOnLoad = useRef(false);

  const sendEmail = useCallback(
    () => api.call('SendVerificationEmail', { response: verificationEmailResponse }),
    [api],
  );

  const proceed = useCallback(() => {
    toast.success(copy.verifiedBody, { title: copy.verified });
    navigate(paths.kycStart.getHref(), { replace: true });
  }, [navigate, toast]);

  useEffect(() => {
    if (sentOnLoad.current || !me.email) return;
    sentOnLoad.current = true;
    sendEmail().catch(() => undefined);
  }, [me.email, sendEmail]);

  // Verified in another tab (the emailed link opens one): notice it when the user comes back.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      refreshMe({ freshToken: true })
        .then((fresh) => {
          if (fresh.emailVerified) proceed();
        })
        .catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refreshMe, proceed]);

  async function check() {
    setBusy('check');
    try {
      const fresh = await refreshMe({ freshToken: true });
      if (fresh.emailVerified) proceed();
      else toast.info(copy.notYetBody, { title: copy.notYet });
    } catch {
      toast.error(copy.checkFailedBody, { title: copy.checkFailed });
    } finally {
      setBusy(null);
    }
  }

  async function resend() {
    setBusy('resend');
    try {
      const result = await sendEmail();
      if ('alreadyVerified' in result) {
        await refreshMe({ freshToken: true });
        proceed();
        return;
      }
      toast.success(copy.sentBody, { title: copy.sent });
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        toast.info(copy.rateLimitedBody(error.retryAfterSeconds ?? 60), { title: copy.rateLimited });
      } else if (error instanceof ApiError && error.status === 404) {
        toast.error(copy.userMissing);
      } else {
        toast.error(copy.sendFailedBody, { title: copy.sendFailed });
      }
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="container app-screen prose">
      <AppTitle title={copy.title} />
      <ScreenHeading>{copy.title}</ScreenHeading>
      {me.email ? (
        <>
          <p>
            {copy.intro} <strong>{me.email}</strong>.
          </p>
          <p>{copy.instructions}</p>
        </>
      ) : (
        <p role="alert">{copy.userMissing}</p>
      )}
      <div className="app-actions">
        <button type="button" className="button" disabled={busy !== null || !me.email} onClick={check}>
          {busy === 'check' ? copy.checking : copy.checked}
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={busy !== null || !me.email}
          onClick={resend}
        >
          {busy === 'resend' ? copy.resending : copy.resend}
        </button>
        <button type="button" className="link-button" onClick={logout}>
          {copy.logOut}
        </button>
      </div>
    </section>
  );
}
