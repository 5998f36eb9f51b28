import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/contact.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export const contact = {
  meta: {
    title: 'Vertrieb kontaktieren',
    description:
      'Sprechen Sie mit unserem Team über den Organisationstarif, ein Pilotprojekt mit Ihren eigenen genomischen Daten oder eine Partnerschaft. Wir antworten innerhalb eines Werktags.',
  } satisfies PageMeta,
  title: 'Kontakt',
  lead: 'Schildern Sie uns, was Ihre Organisation braucht; unser Vertriebsteam antwortet innerhalb eines Werktags. Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse.',
  form: {
    title: 'Schreiben Sie uns',
    nameLabel: 'Name',
    emailLabel: 'Geschäftliche E-Mail-Adresse',
    organizationLabel: 'Organisation',
    messageLabel: 'Nachricht',
    submit: 'Nachricht senden',
    submitting: 'Wird gesendet …',
    success: 'Vielen Dank für Ihre Nachricht. Wir melden uns innerhalb eines Werktags bei Ihnen.',
    failure: 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  },
  other: {
    title: 'Weitere Fragen',
    press: 'Presse und Partnerschaften: Nutzen Sie das Formular oben und sagen Sie uns, wer Sie sind.',
    privacy: 'Datenschutz und Ihre Daten:',
    privacyLink: 'Löschung Ihrer Daten beantragen',
  },
} as const satisfies Localized<typeof en.contact>;
