import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/legal/impressum.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

// Labels only: the values come from web/src/content/company.ts, the one file that holds them.
export const impressum = {
  meta: {
    title: 'Impressum',
    description:
      'Impressum nach § 5 DDG: Firma, Anschrift, Geschäftsführung, Handelsregister, Umsatzsteuer-Identifikationsnummer und Bankverbindung.',
  } satisfies PageMeta,
  title: 'Impressum',
  lead: 'Angaben gemäß § 5 Digitale-Dienste-Gesetz (DDG).',
  provider: 'Diensteanbieter',
  contact: 'Kontakt',
  email: 'E-Mail',
  phone: 'Telefon',
  representedBy: 'Vertretungsberechtigte Geschäftsführer',
  registration: 'Registereintrag',
  court: 'Registergericht',
  number: 'Registernummer',
  vatId: 'Umsatzsteuer-Identifikationsnummer gemäß § 27a UStG',
  banking: 'Bankverbindung',
  bank: 'Kreditinstitut',
  iban: 'IBAN',
  bic: 'BIC',
  responsible: 'Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV',
  disputeTitle: 'Verbraucherstreitbeilegung',
  dispute:
    'Wir sind nicht bereit und nicht verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen.',
} as const satisfies Localized<typeof en.impressum>;
