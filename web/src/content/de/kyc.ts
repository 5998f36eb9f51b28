// Copy of the identity-verification screens: /kyc/start and its consent dialog, and the two status
// screens (/kyc/persona's own is in ./kyc-persona.ts, so the heaviest signed-in route carries none of
// this). The consent statements themselves are not here: the dialog shows
// `consentDocuments.identity_verification` (#contracts/consent-documents.ts), the exact text whose
// version and hash the consent ledger records.
import { company } from '#web/content/company.ts';
import type * as en from '#web/content/kyc.ts';
import type { Localized } from '#web/content/localized.ts';

/** The company's mail domain, so every address below follows company.ts (checked before a release). */
const mailDomain = company.email.slice(company.email.lastIndexOf('@') + 1);

/**
 * Where a user whose verification was not successful turns. Support is the company's contact
 * address; defense and government organizations have their own team at the same domain.
 */
export const kycContacts = {
  support: company.email,
  defenseTeam: `defense@${mailDomain}`,
} as const satisfies typeof en.kycContacts;

export const kycCopy = {
  start: {
    title: 'Identitätsprüfung',
    intro:
      'Bevor Ihre Organisation vollen Zugriff erhält, prüfen wir die Identität der Person, die für sie handelt. Es sind drei kurze Schritte, die in der Regel wenige Minuten dauern.',
    stepsLabel: 'Schritte der Prüfung',
    steps: [
      {
        name: 'Einwilligung',
        body: 'Willigen Sie in die Verarbeitung Ihrer Prüfungsdaten ein. Wir halten genau fest, worin Sie eingewilligt haben.',
      },
      {
        name: 'Identitätsprüfung',
        body: 'Bestätigen Sie Ihre Identität bei unserem Prüfpartner Persona, mit einem amtlichen Ausweis und einem Selfie.',
      },
      {
        name: 'Voller Zugriff',
        body: 'Sobald Ihre Identität bestätigt ist, öffnet sich das Dashboard Ihrer Organisation.',
      },
    ],
    state: {
      done: 'Abgeschlossen',
      current: 'Aktueller Schritt',
      upcoming: 'Ausstehend',
    },
    provideConsent: 'Einwilligung zur Prüfung erteilen',
    continue: 'Weiter zur Prüfung',
    skip: 'Vorerst überspringen',
    skipNote: 'Sie können jederzeit über Ihre Kontoseite hierher zurückkehren.',
  },
  consent: {
    intro:
      'Bitte lesen Sie jede Erklärung und setzen Sie das Häkchen, um zuzustimmen. Alle drei sind erforderlich, bevor die Prüfung beginnen kann.',
    versionLabel: 'Version',
    privacyPolicyLink: 'Datenschutzerklärung lesen (öffnet in einem neuen Tab)',
    incomplete: 'Bitte erteilen Sie alle erforderlichen Einwilligungen, um fortzufahren',
    submit: 'Zustimmen und weiter',
    saving: 'Wird gespeichert …',
    cancel: 'Abbrechen',
    recorded: 'Einwilligung erfolgreich gespeichert! Sie können jetzt Ihre Identität bestätigen.',
    storeFailed: 'Die Einwilligung konnte nicht gespeichert werden. Bitte versuchen Sie es erneut.',
    failed: 'Ein Fehler ist aufgetreten. Bitte versuchen Sie es erneut.',
    emailNotVerified: 'Bitte bestätigen Sie Ihre E-Mail-Adresse, bevor Sie Ihre Einwilligung erteilen.',
  },
  status: {
    title: 'Status der Prüfung',
    returnHome: 'Zurück zur Startseite',
    goNow: 'Jetzt zum Dashboard',
    commercial: {
      pending: {
        heading: 'Prüfung läuft',
        body: 'Vielen Dank. Ihre Angaben zur Identitätsprüfung wurden übermittelt und werden nun geprüft. Die meisten Prüfungen sind innerhalb weniger Minuten abgeschlossen, manche dauern bis zu einem Werktag.',
        next: 'Diese Seite aktualisiert sich von selbst, sobald eine Entscheidung gefallen ist, und wir benachrichtigen Sie zusätzlich per E-Mail. Sie können die Seite bedenkenlos verlassen.',
      },
      approved: {
        heading: 'Prüfung freigegeben',
        body: 'Ihre Identität ist bestätigt, und Ihre Organisation hat jetzt vollen Zugriff.',
        redirect: 'Sie werden zu Ihrem Dashboard weitergeleitet …',
      },
      rejected: {
        heading: 'Prüfung nicht erfolgreich',
        body: 'Wir konnten Ihre Identität mit den vorliegenden Angaben nicht bestätigen. Wenn Sie dies für einen Irrtum halten oder es erneut versuchen möchten, hilft Ihnen unser Support-Team: Schreiben Sie uns über die Kontaktseite.',
        contact: 'Support kontaktieren',
      },
    },
    defense: {
      pending: {
        heading: 'Sicherheitsüberprüfung läuft',
        body: 'Vielen Dank. Ihre Angaben zur Prüfung wurden übermittelt. Verteidigungs- und Regierungsorganisationen durchlaufen eine zusätzliche Sicherheitsüberprüfung, die 2–5 Werktage dauert.',
        next: 'Wir benachrichtigen Sie per E-Mail, sobald die Überprüfung abgeschlossen ist, und diese Seite aktualisiert sich von selbst. Sie können die Seite bedenkenlos verlassen.',
      },
      approved: {
        heading: 'Sicherheitsfreigabe erteilt',
        body: 'Ihre Identität ist bestätigt, und Ihre Organisation wurde für das Dashboard für Verteidigung und Regierung freigegeben.',
        redirect: 'Sie werden zum Dashboard für Verteidigung und Regierung weitergeleitet …',
      },
      rejected: {
        heading: 'Sicherheitsfreigabe nicht erteilt',
        body: 'Wir konnten die Sicherheitsüberprüfung mit den vorliegenden Angaben nicht abschließen. Unser Verteidigungsteam erläutert Ihnen gern die Entscheidung und die nächsten Schritte: Schreiben Sie uns über die Kontaktseite.',
        contact: 'Verteidigungsteam kontaktieren',
      },
    },
    contactAddress: 'E-Mail:',
    reason: 'Begründung:',
    attempts: (used: number, max: number) => `Versuch ${used} von ${max}.`,
    verifyAgain: 'Neuen Versuch starten',
    startingAgain: 'Wird gestartet …',
    newAttemptAllowed:
      'Das Prüfteam hat Ihnen einen neuen Versuch gewährt. Starten Sie ihn, wenn Sie bereit sind; er dauert etwa fünf Minuten.',
    noAttemptsLeft:
      'Sie haben alle Prüfversuche aufgebraucht. Kontaktieren Sie uns, wenn Sie die Entscheidung für falsch halten.',
    startAgainFailed: 'Die Prüfung konnte nicht gestartet werden. Bitte versuchen Sie es erneut.',
    /** An undecided verification stopped by a withdrawal of consent (ADR 0075). */
    withdrawn: {
      heading: 'Prüfung gestoppt',
      body: 'Sie haben Ihre Einwilligung zur Identitätsprüfung widerrufen, daher haben wir Ihre Prüfung vor einer Entscheidung beendet. Sie wird nicht entschieden, und eine neue Prüfung kann erst beginnen, wenn Sie Ihre Einwilligung erneut erteilen.',
      again: 'Einwilligung erneut erteilen',
      account: 'Ihr Konto',
      /** A reviewer allowed a new attempt, but the consent is withdrawn: it comes first. */
      consentFirst:
        'Das Prüfteam hat Ihnen einen neuen Versuch gewährt. Sie haben Ihre Einwilligung zur Identitätsprüfung widerrufen; erteilen Sie sie daher zuerst erneut und starten Sie dann hier den neuen Versuch.',
    },
  },
} as const satisfies Localized<typeof en.kycCopy>;
