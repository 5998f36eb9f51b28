import { germanRegistrationDocuments as consentDocuments } from '#contracts/consent-documents.ts';
// The German sibling by name, not `#web/content/organization.ts`: the German build would swap that
// for this same module, but the translation test loads the twins without the build's swap.
import { organizationTypeOptions } from '#web/content/de/organization.ts';
import type { Localized } from '#web/content/localized.ts';
import type { PageMeta } from '#web/content/pages/types.ts';
import type * as en from '#web/content/registration.ts';

// The registration wizard's copy. Validation messages are not here: they come from the contract
// (#contracts/registration.ts, #contracts/business-email.ts), so the page and the API agree.

export const registration = {
  meta: {
    title: 'Registrieren Sie Ihre Organisation',
    description:
      'Erstellen Sie in drei kurzen Schritten ein Konto für Ihre Organisation: die verantwortliche Person, die Organisation und die Vereinbarungen.',
  } satisfies PageMeta,
  title: 'Registrieren Sie Ihre Organisation',
  lead: 'Drei kurze Schritte. Verwenden Sie Ihre geschäftliche E-Mail-Adresse: Dorthin senden wir Ihre Anmeldeanweisungen.',
  progressLabel: 'Fortschritt der Registrierung',
  stepCount: (step: number, total: number) => `Schritt ${step} von ${total}`,
  stepState: { done: 'abgeschlossen', current: 'aktueller Schritt', upcoming: 'nicht begonnen' },
  steps: {
    responsible: {
      title: 'Verantwortliche Person',
      intro: 'Die Person, die das Konto innehat und für seine Nutzung einsteht.',
    },
    organization: {
      title: 'Organisation',
      intro:
        'Die Organisation, für die das Konto bestimmt ist. Ihre Art bestimmt, welches Dashboard sie erhält.',
    },
    agreements: {
      title: 'Vereinbarungen',
      intro: 'Bitte lesen und akzeptieren Sie jede dieser Vereinbarungen, um das Konto zu erstellen.',
    },
  },
  fields: {
    responsibleName: { label: 'Vollständiger Name' },
    responsibleTitle: { label: 'Position' },
    responsibleEmail: {
      label: 'Geschäftliche E-Mail-Adresse',
      hint: 'Ihre berufliche Adresse. Private Adressen (Gmail, Yahoo usw.) werden nicht akzeptiert.',
    },
    responsiblePhone: { label: 'Telefonnummer', hint: 'Mit Ländervorwahl, zum Beispiel +49 30 1234567.' },
    organizationName: { label: 'Name der Organisation' },
    organizationUrl: {
      label: 'Website',
      hint: 'Die öffentliche Website Ihrer Organisation, zum Beispiel helix-labs.com.',
    },
    organizationType: { label: 'Art der Organisation', placeholder: 'Art der Organisation auswählen' },
  },
  /** In the order the select offers them. */
  organizationTypes: organizationTypeOptions,
  /**
   * Each checkbox shows the exact statement whose version and hash the consent ledger records for
   * the registration (#contracts/consent-documents.ts), and links to the document it refers to.
   */
  agreements: {
    termsAgreed: {
      statement: consentDocuments.terms_of_service.statements[0]?.text ?? '',
      read: 'AGB lesen',
    },
    privacyAgreed: {
      statement: consentDocuments.privacy_policy.statements[0]?.text ?? '',
      read: 'Datenschutzerklärung lesen',
    },
    nonHarmAgreed: {
      statement: consentDocuments.non_harmful_use.statements[0]?.text ?? '',
      read: 'Nutzungsrichtlinie lesen',
    },
  },
  /** After each document link: the legal documents open beside the form (in German, their binding language). */
  documentNote: '(öffnet in einem neuen Tab)',
  whatNext: {
    title: 'So geht es weiter',
    items: [
      'Wir erstellen Ihr Konto und senden Ihre Anmeldeanweisungen an Ihre geschäftliche E-Mail-Adresse.',
      'Folgen Sie dem Link in der E-Mail, um Ihr Passwort festzulegen, und melden Sie sich dann an.',
      'Bestätigen Sie Ihre Identität bei unserem Partner Persona: mit einem amtlichen Lichtbildausweis und einem Selfie, in etwa fünf Minuten.',
      'Sobald die Prüfung freigegeben ist, öffnet sich das Dashboard Ihrer Organisation.',
    ],
  },
  /** People never see it; bots fill it (see the contract's `website`). */
  honeypotLabel: 'Dieses Feld bitte leer lassen',
  /** On the last step: the address the login instructions go to, before Create Account. */
  review: { label: 'Ihre Anmeldeanweisungen gehen an', change: 'E-Mail-Adresse ändern' },
  continue: 'Weiter',
  back: 'Zurück',
  submit: 'Konto erstellen',
  submitting: 'Konto wird erstellt …',
  home: 'Zurück zur Startseite',
  success: {
    title: 'Registrierung erfolgreich!',
    description:
      'Ihr Konto wurde erstellt. Bitte suchen Sie in Ihrem E-Mail-Postfach nach Ihren Anmeldeanweisungen.',
  },
  failure: {
    title: 'Registrierung fehlgeschlagen',
    /** No answer from the server (offline, timeout) or an answer that makes no sense. */
    fallback: 'Ihr Konto konnte nicht erstellt werden. Bitte versuchen Sie es erneut.',
    /** The server refused without saying why. */
    refused: 'Registrierung fehlgeschlagen',
  },
} as const satisfies Localized<typeof en.registration>;
