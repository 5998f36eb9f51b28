// The cookie-consent feature's public face: the provider the layout mounts (with its banner) and
// the hook pages use to read the choice or reopen the settings.
export { CookieConsentProvider, useCookieConsent } from './components/cookie-consent.tsx';
