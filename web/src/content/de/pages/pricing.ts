import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/pricing.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export const pricing = {
  meta: {
    title: 'Preise',
    description:
      'Ein Organisationstarif mit individuellem Preis: die Quantum Engine, unbegrenzte genomische Daten, API-Zugang, bevorzugter Support und ein persönliches Account-Management.',
  } satisfies PageMeta,
  title: 'Preise',
  lead: 'Ein Tarif, zugeschnitten auf Ihre Organisation.',
  plan: {
    name: 'Organisationstarif',
    price: 'Individueller Preis',
    priceNote:
      'Der Preis richtet sich nach der Größe Ihres Teams und Ihren Datenmengen. Jährliche Abrechnung.',
    featuresTitle: 'Alles im Tarif enthalten',
    features: [
      'Zugang zur Quantum Engine',
      'Alle RNA-Strukturtypen',
      'Unbegrenzte Uploads genomischer Daten',
      'Molekulare Simulation',
      'Prädiktive Analyse der Erregerevolution',
      'API-Zugang',
      'Bevorzugter Support',
      'Werkzeuge zur Benchmark-Validierung',
      'Entwicklung individueller Algorithmen',
      'Persönliches Account-Management',
    ],
    cta: 'Vertrieb kontaktieren',
  },
  faqTitle: 'Fragen',
  faq: [
    {
      question: 'Wer kann den Tarif abschließen?',
      answer:
        'Unternehmen sowie Organisationen aus Pharma, Verteidigung, Biosicherheit, Wissenschaft und Verwaltung. Jede Organisation wird geprüft, bevor sie Zugang erhält.',
    },
    {
      question: 'Können wir die Plattform vorab testen?',
      answer: 'Ja. Sprechen Sie mit unserem Vertriebsteam über ein Pilotprojekt mit Ihren eigenen Daten.',
    },
  ],
} as const satisfies Localized<typeof en.pricing>;
