import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AppTitle } from '#web/components/app-title.tsx';
import { useToast } from '#web/components/toast.tsx';
import { isKnownPath, paths } from '#web/config/paths.ts';
import { appShell } from '#web/content/app-shell.ts';
import { signInCopy } from '#web/content/sign-in.ts';
import { journeyState, nextStep } from '#web/lib/journey.ts';
import { useSession } from '#web/lib/session.ts';

// `/auth/callback`: the app shell has exchanged the code (and replaced this history entry) and
// loaded `GET /api/me`; failures and signed-out visitors never reach this screen (the shell sends
// them home). An admin goes to the review queue; anyone else to where the login started, or to
// their next onboarding step.

/** Only a path of this site, never another origin (`//evil.example`) or an unknown page. */
function safeReturnTo(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return undefined;
  const path = value.split(/[?#]/)[0] ?? '';
  if (!isKnownPath(path) || path === paths.authCallback.path || path === paths.login.path) return undefined;
  return value;
}

export function Component() {
  const { me } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const done = useRef(false);

  useEffect(() => {
    if (done.current) return;
    done.current = true;
    if (me.role === 'admin') {
      toast.success(appShell.auth.welcomeAdmin);
      navigate(paths.adminVerification.getHref(), { replace: true });
      return;
    }
    const returnTo = safeReturnTo((location.state as { returnTo?: unknown } | null)?.returnTo);
    navigate(returnTo ?? paths[nextStep(journeyState(me))].getHref(), { replace: true });
  }, [me, navigate, location.state, toast]);

  return (
    <section className="container app-screen app-screen--loading" aria-busy="true">
      <AppTitle title={signInCopy.callback.title} />
      <p role="status" className="app-screen__status">
        {signInCopy.callback.completing}
      </p>
    </section>
  );
}
