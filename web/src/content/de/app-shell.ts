// Copy of the signed-in app's shell: loading, sign-in and session messages, the 403 page. Apart
// from site.ts so it loads with the lazy app shell, not with every public page.
import type * as en from '#web/content/app-shell.ts';
// The German sibling by name, not `#web/content/session.ts`: the German build would swap that for
// this same module, but the translation test loads the twins without the build's swap.
import { sessionMessages } from '#web/content/de/session.ts';
import type { Localized } from '#web/content/localized.ts';

export const appShell = {
  loading: 'Wird geladen …',
  redirectingToLogin: 'Weiterleitung zur Anmeldung …',
  loggingOut: 'Abmeldung läuft …',
  completing: 'Authentifizierung wird abgeschlossen …',
  configFailed: {
    title: 'Die Anwendung konnte nicht starten',
    body: 'Die Konfiguration wurde nicht geladen. Bitte laden Sie die Seite neu.',
    retry: 'Neu laden',
  },
  meFailed: {
    title: 'Ihr Konto konnte nicht geladen werden',
    body: 'Bitte versuchen Sie es gleich noch einmal.',
    retry: 'Erneut versuchen',
  },
  auth: {
    errorTitle: 'Authentifizierungsfehler',
    loginFailed: 'Anmeldung fehlgeschlagen',
    tokenFailed: 'Zugriffstoken konnte nicht abgerufen werden',
    welcomeAdmin: 'Willkommen, Administrator',
    sessionExpired: sessionMessages.expired,
    /** `GET /api/me` answered 401 organization-membership-ended: an admin removed the member (ADR 0084). */
    membershipEnded: 'Sie wurden aus dem Arbeitsbereich Ihrer Organisation entfernt.',
  },
  forbidden: {
    title: 'Zugriff verweigert',
    body: 'Diese Seite ist nur für Administratoren. Benötigen Sie Zugriff, wenden Sie sich an Ihre Kundenbetreuung.',
    home: 'Zur Startseite',
  },
} as const satisfies Localized<typeof en.appShell>;
