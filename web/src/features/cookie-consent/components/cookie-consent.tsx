import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  type CookieChoices,
  type CookieConsent,
  readConsent,
  saveConsent,
} from '#web/features/cookie-consent/lib/consent-store.ts';
import { requiredContext } from '#web/lib/required-context.ts';
import { CookieBanner } from './cookie-banner.tsx';

export interface CookieConsentApi {
  /** null until the visitor chose (and in prerendered HTML). */
  consent: CookieConsent | null;
  /** Reopens the banner (footer "Cookie settings", the cookie policy page). */
  openSettings(): void;
}

const [CookieConsentContextProvider, useCookieConsentApi] = requiredContext<CookieConsentApi>(
  'useCookieConsent',
  'CookieConsentProvider',
);

export function useCookieConsent(): CookieConsentApi {
  return useCookieConsentApi();
}

/** `pending`: prerendered, before React decides; `asking`: no current choice; `reopened`: from a control. */
type BannerState = 'pending' | 'asking' | 'reopened' | 'closed';

/**
 * Reads the stored choice after hydration (prerendered HTML cannot know it) and shows the banner
 * when there is none. The prerendered HTML carries the banner as `pending`: CSS shows it from the
 * first paint exactly when the head script found no current choice (web/inline-scripts.ts), so
 * it never pops up late, and its buttons wait for React. The banner is a fixed overlay: it never
 * moves the page.
 */
export function CookieConsentProvider({ children }: { children: ReactNode }) {
  const [consent, setConsent] = useState<CookieConsent | null>(null);
  const [banner, setBanner] = useState<BannerState>('pending');

  useEffect(() => {
    const stored = readConsent();
    setConsent(stored);
    setBanner(stored ? 'closed' : 'asking');
  }, []);

  // Closing never drops focus on <body>: if it was in the banner (or already on <body>, as after
  // a click in Safari), it goes back to the control that reopened the banner, else to the main
  // content. Focus elsewhere on the page stays where it is.
  const opener = useRef<HTMLElement | null>(null);

  const openSettings = useCallback(() => {
    opener.current = document.activeElement as HTMLElement | null;
    setBanner('reopened');
  }, []);

  const close = useCallback(() => {
    const active = document.activeElement;
    if (active === document.body || active?.closest('.cookie-banner')) {
      const back = opener.current;
      if (back?.isConnected && back !== document.body) back.focus();
      else document.getElementById('main')?.focus({ preventScroll: true });
    }
    setBanner('closed');
  }, []);

  const choose = useCallback(
    (choices: CookieChoices) => {
      close();
      void saveConsent(choices).then(setConsent);
    },
    [close],
  );

  const api = useMemo(() => ({ consent, openSettings }), [consent, openSettings]);

  return (
    <CookieConsentContextProvider value={api}>
      {children}
      {banner !== 'closed' && (
        <CookieBanner
          initial={consent}
          startCustomizing={banner === 'reopened'}
          pending={banner === 'pending'}
          onChoose={choose}
          onClose={consent ? close : undefined}
        />
      )}
    </CookieConsentContextProvider>
  );
}
