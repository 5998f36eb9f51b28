import { paths } from '#web/config/paths.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { cookiePolicy } from '#web/content/pages/legal/cookie-policy.ts';
import { useCookieConsent } from '#web/features/cookie-consent/index.ts';
import { PolicyPage } from './components/policy-page.tsx';

export function Component() {
  const { openSettings } = useCookieConsent();
  return (
    <PolicyPage
      document={cookiePolicy}
      path={paths.cookiePolicy.path}
      slots={{
        'cookie-settings': (
          <p>
            <button type="button" className="button" onClick={openSettings}>
              {cookiePolicy.settingsButton}
            </button>
          </p>
        ),
      }}
    >
      {/* The banner's own revision: a visitor whose choice names another revision is asked again. */}
      <p className="policy__updated">
        {cookiePolicy.revisionLabel}: <span>{cookiePolicyRevision}</span>
      </p>
    </PolicyPage>
  );
}
