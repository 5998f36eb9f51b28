import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { useToast } from '#web/components/toast.tsx';
import { paths } from '#web/config/paths.ts';
import { kycPersonaCopy } from '#web/content/kyc-persona.ts';
import { isEmailNotVerified, isSessionEnd, startInquiry } from '#web/features/kyc/api/kyc-api.ts';
import { type OpenInquiry, openInquiry, type PersonaSdk } from '#web/features/kyc/lib/persona-inquiry.ts';
import { submittedState } from '#web/features/kyc/lib/submission.ts';
import { loadConfig } from '#web/lib/config.ts';
import { segmentOf, statusScreen } from '#web/lib/journey.ts';
import { useSession } from '#web/lib/session.ts';
import '#web/styles/kyc.css';

const copy = kycPersonaCopy;

// `/kyc/persona`: asks the backend for the caller's inquiry (created or resumed there, never by the
// browser), then opens it in the Persona flow. The `persona` SDK is imported here only, on demand
// (components/persona-sdk.ts), so no other chunk carries it. What the flow reports drives the screens; the status itself comes
// only from Persona's webhooks (or a reviewer), which the status screen waits for.

export function Component() {
  const session = useSession();
  const toast = useToast();
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const frameHost = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<'preparing' | 'open'>('preparing');
  // The flow runs once per visit: later renders (a refreshed session, a new toast) must not
  // restart it, so the effect reads the latest values through a ref.
  const latest = useRef({ session, toast, navigate });
  latest.current = { session, toast, navigate };

  const inquiry = useRef<OpenInquiry | undefined>(undefined);
  // The widget is a cross-origin frame: the page never hears the user's mouse or keys in it, so
  // the inactivity rule pauses while it is open (ADR 0057). Released (idempotent) once the flow
  // settles or the screen goes away; the release counts as activity.
  const releaseHold = useRef(() => {});
  // Torn down before React removes the dialog, so the flow still receives `destroy`.
  useLayoutEffect(
    () => () => {
      inquiry.current?.destroy();
      releaseHold.current();
    },
    [],
  );

  useEffect(() => {
    const abort = new AbortController();
    const { session, toast, navigate } = latest.current;
    const statusHref = paths[statusScreen(segmentOf(session.me.organizationType))].getHref();
    const leave = (message: string, tone: 'info' | 'error') => {
      releaseHold.current();
      if (abort.signal.aborted) return;
      toast[tone](message);
      navigate(paths.dashboard.getHref(), { replace: true });
    };

    async function run() {
      let answer: Awaited<ReturnType<typeof startInquiry>>;
      try {
        answer = await startInquiry(session.api, abort.signal);
      } catch (error) {
        if (abort.signal.aborted || isSessionEnd(error)) return;
        if (isEmailNotVerified(error)) {
          toast.info(copy.emailNotVerified);
          await session.refreshMe({ freshToken: true }).catch(() => undefined);
          if (!abort.signal.aborted) navigate(paths.verificationRequired.getHref(), { replace: true });
          return;
        }
        leave(copy.startFailed, 'error');
        return;
      }
      if (abort.signal.aborted) return;

      const { inquiryId, sessionToken } = answer;
      if (!sessionToken) {
        // Already submitted: it waits for Persona's (or a reviewer's) decision.
        navigate(statusHref, { replace: true, state: submittedState() });
        return;
      }

      let sdk: PersonaSdk;
      try {
        sdk = await import('#web/features/kyc/lib/persona-sdk.ts');
      } catch (error) {
        console.error('the persona SDK failed to load', error);
        leave(copy.moduleFailed, 'error');
        return;
      }
      let config: Awaited<ReturnType<typeof loadConfig>>;
      try {
        config = await loadConfig();
      } catch {
        leave(copy.startFailed, 'error');
        return;
      }
      if (abort.signal.aborted || !dialog.current || !frameHost.current) return;

      try {
        releaseHold.current = session.holdActivity();
        inquiry.current = openInquiry(sdk, {
          inquiryId,
          sessionToken,
          environmentId: config.persona.environmentId,
          customHost: config.persona.customHost,
          frameTitle: copy.frameTitle,
          dialog: dialog.current,
          frameHost: frameHost.current,
          onReady: () => setPhase('open'),
          onComplete: () => {
            releaseHold.current();
            toast.success(copy.submitted);
            navigate(statusHref, { replace: true, state: submittedState() });
          },
          onCancel: () => leave(copy.canceled, 'info'),
          onError: (error) => {
            console.error('the verification flow reported an error', error);
            leave(copy.failed, 'error');
          },
        });
      } catch (error) {
        // The SDK refuses a configuration it cannot use (for example an invalid host).
        console.error('the verification flow could not open', error);
        leave(copy.failed, 'error');
      }
    }

    run();
    return () => {
      abort.abort();
      inquiry.current?.destroy();
      inquiry.current = undefined;
      releaseHold.current();
    };
  }, []);

  return (
    <section className="container app-screen prose kyc-screen">
      <AppTitle title={copy.title} />
      <ScreenHeading>{copy.title}</ScreenHeading>
      <p role="status" className="app-screen__status">
        {phase === 'open' ? copy.inProgress : copy.preparing}
      </p>
      <dialog ref={dialog} className="persona-dialog" aria-label={copy.dialogLabel}>
        <div ref={frameHost} className="persona-dialog__frame" />
      </dialog>
    </section>
  );
}
