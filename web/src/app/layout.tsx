import { Outlet } from 'react-router';
import { SiteFooter } from '#web/components/site-footer.tsx';
import { SiteHeader } from '#web/components/site-nav.tsx';
import { ToastProvider } from '#web/components/toast.tsx';
import { errors } from '#web/content/errors.ts';
import { site } from '#web/content/site.ts';
import { CookieConsentProvider } from '#web/features/cookie-consent/cookie-consent.tsx';
import { useScrollOnNavigation } from '#web/lib/scroll.ts';

export function RootLayout() {
  useScrollOnNavigation();
  return (
    <ToastProvider>
      <CookieConsentProvider>
        <div className="page">
          <a className="skip-link" href="#main">
            {site.skipToContent}
          </a>
          <SiteHeader />
          {/* Prerendered and hidden; start.css shows it when the scripts failed (data-start-failed). */}
          <p className="start-failed" hidden>
            {errors.startFailed}
          </p>
          <main id="main" tabIndex={-1} className="site-main">
            <Outlet />
          </main>
          <SiteFooter />
        </div>
      </CookieConsentProvider>
    </ToastProvider>
  );
}
