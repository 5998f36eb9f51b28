import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/investors.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export const investors = {
  meta: {
    title: 'Investoren',
    description:
      'Ein Markt von über 52 Mrd. Euro in Pharma, Biosicherheit und Verteidigung sowie im öffentlichen Gesundheitswesen. Sprechen Sie mit uns über eine Investition in Prognosen der Erregerevolution.',
  } satisfies PageMeta,
  title: 'Investoren',
  lead: 'Prognosen der Erregerevolution bedienen drei Märkte, die schon heute Milliarden dafür ausgeben, zu spät zu sein.',
  market: {
    title: 'Marktchance',
    segments: [
      {
        value: '18 Mrd. €',
        name: 'Pharmazeutische Forschung und Entwicklung',
        body: 'Pipelines für Impfstoffe und antivirale Wirkstoffe, die die Varianten vorwegnehmen müssen, denen sie begegnen werden.',
      },
      {
        value: '22 Mrd. €',
        name: 'Biosicherheit und Verteidigung',
        body: 'Frühwarnung und Zuordnung biologischer Bedrohungen, ob natürlich entstanden oder künstlich erzeugt.',
      },
      {
        value: '12 Mrd. €',
        name: 'Öffentliche Gesundheit und Behörden',
        body: 'Programme zur genomischen Überwachung und Behörden für Pandemievorsorge.',
      },
    ],
    total: {
      value: '52+ Mrd. €',
      name: 'Adressierbarer Gesamtmarkt',
    },
  },
  form: {
    title: 'Investorenanfrage',
    lead: 'Erzählen Sie uns von sich, und wir senden Ihnen unsere Unterlagen für Investoren. Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse.',
    nameLabel: 'Name',
    emailLabel: 'Geschäftliche E-Mail-Adresse',
    organizationLabel: 'Organisation',
    messageLabel: 'Nachricht',
    optional: '(optional)',
    submit: 'Anfrage senden',
    submitting: 'Wird gesendet …',
    success: 'Vielen Dank. Unser Investor-Relations-Team meldet sich in Kürze bei Ihnen.',
    failure: 'Ihre Anfrage konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  },
} as const satisfies Localized<typeof en.investors>;
