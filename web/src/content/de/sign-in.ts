// Copy of the sign-in screens: the callback, Verify Your Email, and the registration-complete page.
import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/sign-in.ts';

export const signInCopy = {
  callback: {
    title: 'Anmeldung',
    completing: 'Authentifizierung wird abgeschlossen …',
    joinFailed:
      'Wir konnten Sie noch nicht zu Ihrer Organisation hinzufügen. Bitte melden Sie sich erneut über die Einladungs-E-Mail an.',
  },
  verifyEmail: {
    title: 'Bestätigen Sie Ihre E-Mail-Adresse',
    /** Followed by the address and a full stop. */
    intro: 'Wir haben einen Bestätigungslink an diese Adresse gesendet:',
    instructions:
      'Öffnen Sie den Link in dieser E-Mail, um Ihre Adresse zu bestätigen, und kehren Sie dann hierher zurück. Über den Link erfahren wir außerdem, dass die Adresse Ihnen gehört, bevor wir Ihre Identität prüfen.',
    checked: 'Ich habe meine E-Mail-Adresse bestätigt',
    checking: 'Wird geprüft …',
    resend: 'Bestätigungs-E-Mail erneut senden',
    resending: 'Wird gesendet …',
    logOut: 'Abmelden und andere E-Mail-Adresse verwenden',
    verified: 'E-Mail-Adresse bestätigt!',
    verifiedBody: 'Vielen Dank. Geben Sie als Nächstes Ihre Einwilligung zur Identitätsprüfung.',
    notYet: 'Noch nicht bestätigt',
    notYetBody:
      'Ihre E-Mail-Adresse ist noch nicht bestätigt. Öffnen Sie den Link in der E-Mail, die wir Ihnen gesendet haben, und versuchen Sie es dann erneut.',
    sent: 'Bestätigungs-E-Mail gesendet',
    sentBody: 'Suchen Sie in Ihrem Posteingang und in Ihrem Spam-Ordner nach dem Bestätigungslink.',
    sendFailed: 'E-Mail konnte nicht gesendet werden',
    sendFailedBody:
      'Beim Senden der Bestätigungs-E-Mail ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut.',
    rateLimited: 'Bitte warten Sie',
    rateLimitedBody: (seconds: number) =>
      `Eine Bestätigungs-E-Mail wurde gerade erst gesendet. Sie können in ${seconds} ${seconds === 1 ? 'Sekunde' : 'Sekunden'} eine weitere senden.`,
    checkFailed: 'Abfrage fehlgeschlagen',
    checkFailedBody:
      'Wir konnten den Status Ihrer E-Mail-Adresse nicht abfragen. Bitte versuchen Sie es erneut.',
    userMissing: 'Benutzerinformationen sind nicht verfügbar. Bitte melden Sie sich erneut an.',
  },
  registrationSuccess: {
    title: 'Registrierung erfolgreich',
    body: 'Ihre Organisation ist registriert und Ihr Passwort ist festgelegt. Ihr Dashboard zeigt, was als Nächstes folgt: die Identitätsprüfung, etwa fünf Minuten mit einem amtlichen Lichtbildausweis und einem Selfie.',
    dashboard: 'Zum Dashboard',
    home: 'Zurück zur Startseite',
  },
} as const satisfies Localized<typeof en.signInCopy>;
