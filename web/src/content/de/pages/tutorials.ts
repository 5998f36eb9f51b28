import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/tutorials.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export const tutorials = {
  meta: {
    title: 'Tutorials',
    description:
      'Schritt-für-Schritt-Anleitungen für die Quantum Engine: vom ersten Genom-Upload bis zur vollständigen Evolutionsprognose. Für geprüfte Organisationen.',
  } satisfies PageMeta,
  title: 'Tutorials',
  lead: 'Geführte Tutorials begleiten Ihr Team vom ersten Upload bis zur validierten Prognose.',
  includesTitle: 'Was geprüfte Organisationen erhalten',
  includes: [
    'Ihre erste Prognose: einen Sequenzsatz hochladen und die Ergebnisse lesen',
    'RNA-Strukturen modellieren und verstehen, was ihre Veränderungen bedeuten',
    'Molekulare Simulationen gegen Wirtsrezeptoren ausführen',
    'Prognosen über die API automatisieren',
    'Prognosen an Ihren eigenen historischen Daten validieren',
  ],
  howTitle: 'So erhalten Sie Zugang',
  how: 'Die Tutorials stehen in Ihrem Dashboard bereit, sobald Ihre Organisation registriert und Ihre Identität geprüft ist.',
  register: 'Organisation registrieren',
} as const satisfies Localized<typeof en.tutorials>;
