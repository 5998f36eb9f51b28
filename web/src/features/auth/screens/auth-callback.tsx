import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { MeResponse } from '#contracts/me.ts';
import { joinOrganizationResponse } from '#contracts/organization-team.ts';
import { problemTypes } from '#contracts/problem.ts';
import { AppTitle } from '#web/components/app-title.tsx';
import { useToast } from '#web/components/toast.tsx';
import { isKnownPath, paths } from '#web/config/paths.ts';
import { appShell } from '#web/content/app-shell.ts';
import { signInCopy } from '#web/content/sign-in.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { journeyState, nextStep } from '#web/lib/journey.ts';
import { useSession } from '#web/lib/session.ts';
import { tabStorage } from '#web/lib/storage.ts';

// `/auth/callback`: the app shell has exchanged the code (and replaced this history entry) and
// loaded `GET /api/me`; failures and signed-out visitors never reach this screen (the shell sends
// them home). An admin goes to the review queue; anyone else to where the login started, or to
// their next onboarding step. Before that, the organization (ADR 0084): an invitee's login joins
// the organization its token names; a member's login without their organization is done again
// through it, once.

/** Only a path of this site, never another origin (`//evil.example`) or an unknown page. */
function safeReturnTo(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return undefined;
  const path = value.split(/[?#]/)[0] ?? '';
  if (!isKnownPath(path) || path === paths.authCallback.path || path === paths.login.path) return undefined;
  return value;
}

/** Set before the login through the member's organization: one such login per callback, never a loop. */
const organizationLoginKey = 'platform.organization-login';

export function Component() {
  const { api, me, refreshMe, tokenOrganizationId, loginThrough } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const done = useRef(false);

  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const returnTo = safeReturnTo((location.state as { returnTo?: unknown } | null)?.returnTo);
    const goOn = (account: MeResponse) => {
      if (account.role === 'admin') {
        toast.success(appShell.auth.welcomeAdmin);
        navigate(paths.adminVerification.getHref(), { replace: true });
        return;
      }
      navigate(returnTo ?? paths[nextStep(journeyState(account))].getHref(), { replace: true });
    };
    // Whether this login is the one the callback itself started through the organization.
    const retried = tabStorage.take(organizationLoginKey) !== null;

    // An accepted invitation (ADR 0084): the login went through an organization the account does not
    // belong to yet, so its invitation becomes a membership. Without one (404), the login goes on.
    if (me.organizationId === null && tokenOrganizationId) {
      api
        .call('JoinOrganization', {
          params: { organizationId: tokenOrganizationId },
          response: joinOrganizationResponse,
        })
        .then(() => refreshMe())
        .then(goOn, (error: unknown) => {
          if (!(error instanceof ApiError && error.is(problemTypes.invitationNotFound)))
            toast.error(signInCopy.callback.joinFailed);
          goOn(me);
        });
      return;
    }

    // A member who signed in without their organization (a browser that never used the emailed
    // link): sign in through it, once; the provider grants it over its session without a form.
    if (me.organizationId !== null && tokenOrganizationId !== me.organizationId && !retried) {
      tabStorage.set(organizationLoginKey, '1');
      loginThrough(me.organizationId, returnTo).catch(() => {
        tabStorage.take(organizationLoginKey);
        goOn(me);
      });
      return;
    }
    goOn(me);
  }, [api, me, refreshMe, tokenOrganizationId, loginThrough, navigate, location.state, toast]);

  return (
    <section className="container app-screen app-screen--loading" aria-busy="true">
      <AppTitle title={signInCopy.callback.title} />
      <p role="status" className="app-screen__status">
        {signInCopy.callback.completing}
      </p>
    </section>
  );
}
