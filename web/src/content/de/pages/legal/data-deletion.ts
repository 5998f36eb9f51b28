import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/legal/data-deletion.ts';
import { policyFacts as f } from '#web/content/pages/legal/facts.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';

export const dataDeletion = {
  meta: {
    title: 'Datenlöschung',
    description: `Beantragen Sie die Löschung Ihrer personenbezogenen Daten. Wir bearbeiten jeden Löschantrag innerhalb von ${f.deletionDeadlineDays} Tagen und teilen Ihnen mit, was wir gesetzlich aufbewahren müssen.`,
  },
  title: 'Datenlöschung',
  lastUpdated: '2025-06-08',
  lastUpdatedLabel: 'Stand',
  intro: [
    `Sie können verlangen, dass wir die personenbezogenen Daten löschen, die wir über Sie gespeichert haben (Art. 17 DSGVO). Wir bearbeiten jeden Löschantrag innerhalb von ${f.deletionDeadlineDays} Tagen, nachdem die Inhaberin oder der Inhaber der E-Mail-Adresse ihn bestätigt hat.`,
  ],
  sections: [
    {
      id: 'was-wir-loeschen',
      heading: 'Was wir löschen',
      items: [
        'Ihr Konto bei unserem Identitätsanbieter und Ihre Registrierungsdaten',
        'Einträge auf der Warteliste, Kontaktnachrichten und Investorenanfragen, die von Ihrer Adresse gesendet wurden',
        'Ihre Ausweisdokumente, Ihr Selfie und die daraus ausgelesenen Daten bei unserem Prüfdienstleister Persona, den wir um Schwärzung bitten',
      ],
    },
    {
      id: 'was-wir-aufbewahren',
      heading: 'Was wir aufbewahren müssen',
      paragraphs: [
        'Manche Aufzeichnungen müssen über einen Löschantrag hinaus bestehen bleiben, weil das Gesetz es verlangt:',
      ],
      items: [
        `Vertragsdaten und die Nachweise Ihrer Einwilligungen: ${f.contractRetentionYears} Jahre.`,
        `KYC-Daten (Ergebnis und Verlauf Ihrer Identitätsprüfung): ${f.kycRetentionYears} Jahre nach Ende der Geschäftsbeziehung.`,
        `Finanzunterlagen: etwa ${f.financialRecordsYears} Jahre.`,
        `Website-Logs: ${f.websiteLogRetentionDays} Tage; danach werden sie ohnehin gelöscht.`,
        'Ihren Löschantrag selbst, als Nachweis, dass wir ihn erhalten und beantwortet haben.',
      ],
      after: [
        'Aufbewahrte Daten werden für jede andere Verwendung gesperrt und gelöscht, sobald ihre Frist abläuft.',
      ],
    },
    {
      id: 'loeschung-beantragen',
      heading: 'Löschung beantragen',
      paragraphs: [
        `Geben Sie die E-Mail-Adresse ein, deren Daten gelöscht werden sollen. Wir senden einen Link an diese Adresse; der Antrag gilt als gestellt, sobald er über diesen Link innerhalb von ${f.deletionConfirmationHours} Stunden bestätigt wird, und wir schließen ihn dann innerhalb von ${f.deletionDeadlineDays} Tagen ab. Wenn Sie angemeldet sind, können Sie die Löschung auch ohne Link auf Ihrer Kontoseite beantragen.`,
      ],
      slot: 'deletion-form',
    },
  ],
  form: {
    emailLabel: 'E-Mail-Adresse',
    nameLabel: 'Name',
    detailsLabel: 'Details',
    detailsHint: 'Alles, was uns hilft, Ihre Daten zu finden, etwa Ihre Organisation.',
    optional: '(optional)',
    submit: 'Löschung beantragen',
    submitting: 'Wird gesendet …',
    failure: 'Ihr Antrag konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
    receivedTitle: 'Bitte bestätigen Sie über Ihr Postfach',
    requestIdLabel: 'Antragsnummer',
    receivedBody: `Wir haben einen Link an die angegebene Adresse gesendet. Öffnen Sie ihn innerhalb von ${f.deletionConfirmationHours} Stunden und bestätigen Sie den Antrag: Bis dahin wird nichts gelöscht. Nach Ihrer Bestätigung schließen wir Ihren Antrag innerhalb von ${f.deletionDeadlineDays} Tagen ab.`,
  },
} as const satisfies PolicyDocument & { form: Record<string, string> } satisfies Localized<
  typeof en.dataDeletion
>;
