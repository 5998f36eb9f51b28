import {
  type ConsentPurpose,
  germanConsentDocuments as consentDocuments,
} from '#contracts/consent-documents.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import { contractRetentionYears, deletionDeadlineDays, kycRetentionYears } from '#contracts/retention.ts';
import type * as en from '#web/content/account.ts';
import type { Localized } from '#web/content/localized.ts';
import { organizationTypeNames } from '#web/content/organization.ts';

// Copy of the account screen (/user-account), and the words for an account's facts that the
// dashboards show too (organization type, verification status). Wording choices:
// docs/decisions/0027-dashboards-and-account.md.

export const notSet = 'Nicht angegeben';

export function organizationTypeName(type: OrganizationType | null): string {
  return type === null ? notSet : organizationTypeNames[type];
}

/**
 * The identity verification's status in words. `not_started` covers both "consent not given yet"
 * and "consent given, verification not sent": in both the user still has to submit it.
 */
export const verificationStatusNames = {
  not_started: 'Nicht begonnen',
  pending: 'In Prüfung',
  approved: 'Bestätigt',
  rejected: 'Nicht freigegeben',
} as const satisfies Localized<typeof en.verificationStatusNames>;

/** A consent ledger purpose in words: the title of the document the person agreed to. */
export function consentPurposeName(purpose: ConsentPurpose): string {
  return consentDocuments[purpose].title;
}

/**
 * What a withdrawal keeps, said the same way before (the dialog) and after (the standing notice):
 * the numbers are the retention table's (lambdas/contracts/retention.ts; ADR 0077).
 */
// Non-breaking spaces keep a citation's parts on one line (no "§" or "Art." alone at a line's end).
const keptEvidence = `bewahren wir den Datensatz und die Nachweise dazu ${kycRetentionYears} Jahre nach der Schließung Ihres Kontos auf, weil das Geldwäscherecht es verlangt (§\u00a08 Abs.\u00a04 GwG, Richtlinie (EU) 2015/849, Art.\u00a040). Wir verwenden sie für nichts anderes.`;
const keptConsentRecords = `${contractRetentionYears} Jahre lang nach der Schließung Ihres Kontos, als Nachweis, wozu Sie wann eingewilligt haben (Art.\u00a07 Abs.\u00a01 DSGVO)`;

export const accountCopy = {
  title: 'Ihr Konto',
  logOut: 'Abmelden',
  next: {
    dashboard: 'Zum Dashboard',
    admin: 'Zur Prüfungsübersicht',
    onboarding: 'Onboarding fortsetzen',
  },
  profile: {
    heading: 'Profil',
    name: 'Name',
    email: 'E-Mail',
    organization: 'Organisation',
    organizationType: 'Art der Organisation',
    verification: 'Identitätsprüfung',
  },
  consents: {
    heading: 'Einwilligungsverlauf',
    intro:
      'Jede Einwilligung, die Sie erteilt oder widerrufen haben, so wie unser Einwilligungsregister sie erfasst hat, die neueste zuerst. Die Textversion bezeichnet den genauen Wortlaut, der Ihnen angezeigt wurde.',
    loading: 'Ihr Einwilligungsverlauf wird geladen …',
    empty: 'Für Ihr Konto sind noch keine Einwilligungen erfasst.',
    failed: 'Ihr Einwilligungsverlauf konnte nicht geladen werden.',
    retry: 'Erneut versuchen',
    retrying: 'Wird geladen …',
    granted: 'Erteilt',
    withdrawn: 'Widerrufen',
    textVersion: 'Textversion',
    method: {
      consent_dialog: 'Im Einwilligungsdialog',
      registration_wizard: 'Bei der Registrierung',
      account_page: 'Auf Ihrer Kontoseite',
    },
    withdraw: {
      open: 'Einwilligung widerrufen',
      title: 'Ihre Einwilligung zur Identitätsprüfung widerrufen?',
      consequences: [
        'Wir beenden die Verarbeitung Ihrer Identitätsprüfung. Eine noch nicht entschiedene Prüfung wird bei unserem Prüfdienstleister abgebrochen, und Sie können erst wieder eine beginnen, wenn Sie Ihre Einwilligung erneut erteilen.',
        `Wenn über Ihre Prüfung bereits entschieden wurde, ${keptEvidence}`,
        `Ihr Einwilligungsverlauf speichert beide Einträge, Ihre erteilte Einwilligung und diesen Widerruf, ${keptConsentRecords}.`,
      ],
      confirm: 'Einwilligung widerrufen',
      cancel: 'Einwilligung beibehalten',
      withdrawing: 'Wird widerrufen …',
      done: 'Ihre Einwilligung ist widerrufen.',
      notActive:
        'Es gibt keine Einwilligung, die widerrufen werden kann: Sie wurde nie erteilt oder ist bereits widerrufen.',
      failed: 'Ihre Einwilligung konnte nicht widerrufen werden. Bitte versuchen Sie es erneut.',
    },
    /** After a withdrawal, while no new consent is given (GET /api/me's `consentWithdrawn`). */
    withdrawnNotice: {
      heading: 'Ihre Einwilligung zur Identitätsprüfung ist widerrufen',
      stopped:
        'Wir verarbeiten Ihre Daten nicht mehr zur Identitätsprüfung. Eine Prüfung kann erst wieder beginnen, wenn Sie Ihre Einwilligung erneut erteilen.',
      decided: `Über Ihre Prüfung war bereits entschieden, daher ${keptEvidence}`,
      undecided:
        'Über Ihre Prüfung war noch nicht entschieden, daher haben wir sie bei unserem Prüfdienstleister beendet: Es wird keine Entscheidung mehr getroffen.',
      consentRecords: `Die Einträge zu Ihrer Einwilligung und zu deren Widerruf speichern wir ${keptConsentRecords}. Darüber hinaus wird nichts verarbeitet.`,
      again: 'Einwilligung erneut erteilen',
    },
  },
  dataExport: {
    heading: 'Ihre Daten',
    intro:
      'Laden Sie eine Kopie aller Daten herunter, die wir über Sie gespeichert haben (Art.\u00a015 und 20 DSGVO): Ihr Profil, Ihre Organisation und Registrierung, jede Einwilligung, die Sie erteilt oder widerrufen haben, mit der Version des Textes, den Sie gesehen haben, den Verlauf Ihrer Identitätsprüfung und die Formulare, die Sie unter Ihrer E-Mail-Adresse gesendet haben. Die Datei ist im JSON-Format, für Menschen lesbar und von anderen Diensten verarbeitbar. Sie können sie bis zu 5-mal am Tag herunterladen.',
    download: 'Meine Daten herunterladen',
    preparing: 'Wird vorbereitet …',
    savedTitle: 'Datei bereit',
    saved: 'Ihre Daten wurden als JSON-Datei gespeichert.',
    failedTitle: 'Herunterladen fehlgeschlagen',
    failed: 'Ihre Daten konnten nicht heruntergeladen werden. Bitte versuchen Sie es erneut.',
    limited:
      'Sie haben Ihre Daten heute bereits 5-mal heruntergeladen. Bitte versuchen Sie es morgen erneut.',
  },
  deletion: {
    heading: 'Ihre Daten löschen',
    intro: `Sie können uns bitten, die personenbezogenen Daten zu löschen, die wir über Sie gespeichert haben (Art.\u00a017 DSGVO). Wir erledigen jeden Antrag innerhalb von ${deletionDeadlineDays} Tagen und bestätigen ihn per E-Mail. Daten, die wir gesetzlich aufbewahren müssen, etwa Ihre Einwilligungsnachweise und das Ergebnis Ihrer Identitätsprüfung, bewahren wir nur für die gesetzliche Frist auf und sperren sie für jede andere Verwendung.`,
    policyLink: 'Was wir löschen und was wir aufbewahren',
    emailLabel: 'E-Mail-Adresse',
    emailNote: 'Ein Antrag von dieser Seite gilt immer für die Adresse dieses Kontos.',
    detailsLabel: 'Angaben',
    optional: '(optional)',
    detailsHint:
      'Alles, was uns hilft, etwa andere unserer Dienste, die Sie mit dieser Adresse genutzt haben.',
    review: 'Löschung beantragen',
    confirmHeading: 'Bestätigen Sie Ihren Löschantrag',
    confirmBody: (email: string) =>
      `Wir löschen die personenbezogenen Daten, die wir zu ${email} gespeichert haben, mit Ausnahme dessen, was wir gesetzlich aufbewahren müssen. Sobald der Antrag ausgeführt ist, können Sie sich nicht mehr mit diesem Konto anmelden.`,
    send: 'Löschantrag absenden',
    sending: 'Wird gesendet …',
    cancel: 'Abbrechen',
    failedTitle: 'Antrag nicht gesendet',
    failed: 'Ihr Löschantrag konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
    receivedTitle: 'Antrag eingegangen',
    requestId: 'Antrags-ID',
    dueBy: 'Zu erledigen bis',
    receivedBody: (email: string) =>
      `Wir haben eine Bestätigung an ${email} gesendet. Bitte bewahren Sie die Antrags-ID auf: Wir erledigen Ihren Antrag bis zum oben genannten Datum.`,
    pending: {
      heading: 'Löschung beantragt',
      requestedOn: 'Beantragt am',
      dueBy: 'zu erledigen bis',
      cancel: 'Löschantrag zurückziehen',
      cancelling: 'Wird zurückgezogen …',
      inProgress: 'Wir führen Ihren Antrag bereits aus; er kann nicht mehr zurückgezogen werden.',
      cancelledTitle: 'Antrag zurückgezogen',
      cancelled: 'Ihr Löschantrag ist zurückgezogen. Es wurde nichts gelöscht.',
      failedTitle: 'Zurückziehen fehlgeschlagen',
      failed: 'Ihr Löschantrag konnte nicht zurückgezogen werden. Bitte versuchen Sie es erneut.',
      tooLate:
        'Wir haben bereits mit der Ausführung Ihres Antrags begonnen: Er kann nicht mehr zurückgezogen werden.',
    },
  },
} as const satisfies Localized<typeof en.accountCopy>;
