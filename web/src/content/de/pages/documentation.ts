import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/documentation.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export const documentation = {
  meta: {
    title: 'Dokumentation',
    description:
      'Plattformdokumentation, API-Referenz und Integrationsleitfäden stehen geprüften Organisationen zur Verfügung. Registrieren Sie Ihre Organisation, um Zugang zu erhalten.',
  } satisfies PageMeta,
  title: 'Dokumentation',
  lead: 'Die vollständige Dokumentation steht geprüften Organisationen zur Verfügung, sobald sie angemeldet sind.',
  includesTitle: 'Was geprüfte Organisationen erhalten',
  includes: [
    'Das Benutzerhandbuch der Quantum Engine: Läufe, Parameter und wie Sie eine Prognose lesen',
    'Die API-Referenz mit Authentifizierung, Ratenbegrenzungen und Beispielen',
    'Upload-Formate für genomische Sequenzen und Metadaten (FASTA, FASTQ, VCF)',
    'Werkzeuge zur Benchmark-Validierung und wie Sie unsere veröffentlichten Ergebnisse reproduzieren',
    'Dokumentation zu Sicherheit und Compliance für Ihren Einkauf',
  ],
  howTitle: 'So erhalten Sie Zugang',
  how: 'Registrieren Sie Ihre Organisation, bestätigen Sie Ihre E-Mail-Adresse und lassen Sie Ihre Identität prüfen. Der Zugang wird freigeschaltet, sobald Ihre Prüfung freigegeben ist.',
  register: 'Organisation registrieren',
} as const satisfies Localized<typeof en.documentation>;
