// The local storage keys the cookie policy names. A module of their own because the head script
// (web/inline-scripts.ts) is written from them at build time and must not pull in the store.

export const consentKeys = {
  consent: 'cookie-consent',
  date: 'cookie-consent-date',
  revision: 'cookie-consent-revision',
  id: 'cookie-consent-id',
} as const;
