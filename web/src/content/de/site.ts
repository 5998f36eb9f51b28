// Copy shared by every page: the product name, navigation, footer, cookie banner and toasts.
import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/site.ts';

export const site = {
  productName: 'Helix Forecast',
  skipToContent: 'Zum Hauptinhalt springen',
  homeLink: 'Helix Forecast – Startseite',
  nav: {
    label: 'Hauptmenü',
    framework: 'Unser Framework',
    vision: 'Die Vision',
    account: 'Konto',
    logIn: 'Anmelden',
    dashboard: 'Dashboard',
    /** A signed-in user not yet approved: back to their next step of onboarding (ADR 0085). */
    nextStep: 'Einrichtung fortsetzen',
    verificationReview: 'Prüfungsübersicht',
    team: 'Team',
    requestAccess: 'Beta-Zugang anfordern',
    loading: 'Wird geladen …',
    openMenu: 'Menü öffnen',
    closeMenu: 'Menü schließen',
    logOut: 'Abmelden',
    logInFailedTitle: 'Authentifizierungsfehler',
    logInFailed: 'Anmeldung fehlgeschlagen',
    logOutFailed: 'Abmeldung fehlgeschlagen. Bitte versuchen Sie es erneut.',
  },
  theme: {
    switchToDark: 'Zum dunklen Design wechseln',
    switchToLight: 'Zum hellen Design wechseln',
    /** Before the theme is known (prerendered HTML), the button can only say what it is. */
    unknown: 'Farbdesign wechseln',
  },
  footer: {
    label: 'Fußzeile',
    note: 'Genombasierte Vorhersage der Erregerevolution für Unternehmen, Pharma, Verteidigung und Biosicherheit.',
    resources: 'Ressourcen',
    company: 'Unternehmen',
    legal: 'Rechtliches',
    documentation: 'Dokumentation',
    tutorials: 'Anleitungen',
    careers: 'Karriere',
    investors: 'Investoren',
    contact: 'Kontakt',
    terms: 'AGB',
    privacy: 'Datenschutz',
    gdpr: 'DSGVO',
    impressum: 'Impressum',
    cookieSettings: 'Cookie-Einstellungen',
    registration: 'Registereintrag',
    banking: 'Bankverbindung',
    iban: 'IBAN',
    bic: 'BIC',
  },
  cookieBanner: {
    title: 'Cookies auf dieser Website',
    body: 'Wir nutzen notwendige Cookies für den Betrieb der Website, mit Ihrer Einwilligung auch Cookies für Analyse, Marketing und KI-Personalisierung.',
    policyLink: 'Cookie-Richtlinie',
    acceptAll: 'Alle akzeptieren',
    rejectAll: 'Alle ablehnen',
    customize: 'Anpassen',
    save: 'Auswahl speichern',
    essential: 'Notwendig (immer aktiv)',
    analytics: 'Analyse',
    marketing: 'Marketing',
    personalization: 'KI-Personalisierung',
  },
  toast: {
    regionLabel: 'Benachrichtigungen',
    errorRegionLabel: 'Fehler',
    dismiss: 'Benachrichtigung schließen',
  },
  /** The language switcher: one link to the same page in the other language (issue 28, ADR 0089). */
  language: {
    label: 'Sprache',
    /** The link's text, in the other language (the link carries `lang="en"`). */
    switchTo: 'English',
    switchToLabel: 'Read in English',
  },
} as const satisfies Localized<typeof en.site>;

export function pageTitle(page?: string): string {
  return page ? `${page} | ${site.productName}` : site.productName;
}
