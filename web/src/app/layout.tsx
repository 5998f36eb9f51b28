import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SiteFooter } from '#web/components/site-footer.tsx';
import { SiteHeader } from '#web/components/site-nav.tsx';
import { ToastProvider, useToast } from '#web/components/toast.tsx';
import { errors } from '#web/content/errors.ts';
import { site } from '#web/content/site.ts';
import { CookieConsentProvider, useCookieConsent } from '#web/features/cookie-consent/index.ts';
import { signOut } from '#web/lib/auth/index.ts';
import { pendingNoticeKey } from '#web/lib/journey-storage.ts';
import { useScrollOnNavigation } from '#web/lib/scroll.ts';
import { tabStorage } from '#web/lib/storage.ts';

/** The nav's Log Out: the other open tabs log out too (the session rules), then the provider's logout. */
async function logOut(): Promise<void> {
  const { endSession } = await import('#web/features/session/index.ts');
  endSession();
  await signOut();
}

export function RootLayout() {
  useScrollOnNavigation();
  return (
    <ToastProvider>
      <CookieConsentProvider>
        <div className="page">
          <a className="skip-link" href="#main">
            {site.skipToContent}
          </a>
          <SiteHeader onLogOut={logOut} />
          {/* Prerendered and hidden; start.css shows it when the scripts failed (data-start-failed). */}
          <p className="start-failed" hidden>
            {errors.startFailed}
          </p>
          <main id="main" tabIndex={-1} className="site-main">
            <Outlet />
          </main>
          <Footer />
        </div>
        <LogoutNotice />
      </CookieConsentProvider>
    </ToastProvider>
  );
}

/**
 * A return to the bare site root (no query string) is a return from the identity provider's
 * logout: say why the session ended when the app shell left a notice (inactivity, time limit).
 */
function LogoutNotice() {
  const { pathname, search } = useLocation();
  const toast = useToast();
  useEffect(() => {
    if (pathname !== '/' || search !== '') return;
    const notice = tabStorage.take(pendingNoticeKey);
    if (notice) toast.info(notice);
  }, [pathname, search, toast]);
  return null;
}

function Footer() {
  const { openSettings } = useCookieConsent();
  return <SiteFooter onOpenCookieSettings={openSettings} />;
}
