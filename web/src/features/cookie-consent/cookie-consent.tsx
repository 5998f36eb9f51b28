import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { type CookieChoices, type CookieConsent, readConsent, saveConsent } from './consent-store.ts';
import { CookieBanner } from './cookie-banner.tsx';

export interface CookieConsentApi {
  /** null until the visitor chose (and in prerendered HTML). */
  consent: CookieConsent | null;
  /** Reopens the banner (footer "Cookie settings", the cookie policy page). */
  openSettings(): void;
}

const CookieConsentContext = createContext<CookieConsentApi | null>(null);

export function useCookieConsent(): CookieConsentApi {
  const api = useContext(CookieConsentContext);
  if (!api) throw new Error('useCookieConsent() needs a <CookieConsentProvider> (the layout renders one)');
  return api;
}

type BannerState = { open: false } | { open: true; reopened: boolean; pending: boolean };

/**
 * Reads the stored choice after hydration (prerendered HTML cannot know it) and shows the banner
 * when there is none. The prerendered HTML carries the banner as `pending`: CSS shows it from the
 * first paint exactly when the head script found no current choice (web/inline-scripts.ts), so
 * it never pops up late, and its buttons wait for React. The banner is a fixed overlay: it never
 * moves the page.
 */
export function CookieConsentProvider({ children }: { children: ReactNode }) {
  const [consent, setConsent] = useState<CookieConsent | null>(null);
  const [banner, setBanner] = useState<BannerState>({ open: true, reopened: false, pending: true });

  useEffect(() => {
    const stored = readConsent();
    setConsent(stored);
    setBanner(stored ? { open: false } : { open: true, reopened: false, pending: false });
  }, []);

  const openSettings = useCallback(() => setBanner({ open: true, reopened: true, pending: false }), []);

  const choose = useCallback((choices: CookieChoices) => {
    setBanner({ open: false });
    void saveConsent(choices).then(setConsent);
  }, []);

  const api = useMemo(() => ({ consent, openSettings }), [consent, openSettings]);

  return (
    <CookieConsentContext.Provider value={api}>
      {children}
      {banner.open && (
        <CookieBanner
          initial={consent}
          startCustomizing={banner.reopened}
          pending={banner.pending}
          onChoose={choose}
          onClose={consent ? () => setBanner({ open: false }) : undefined}
        />
      )}
    </CookieConsentContext.Provider>
  );
}
