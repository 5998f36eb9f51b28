// The company's registration and banking details: the footer and the impressum read them from
// here and nowhere else. A production build refuses to ship while a value is a placeholder
// (`TODO`, `XXX`, `[...]`, an empty value, an address or URL on a reserved example domain, an IBAN
// whose checksum fails): web/scripts/placeholders.ts; `ALLOW_PLACEHOLDER_CONTENT=1` opts out for
// local and test builds.
export const company = {
  legalName: '[Company legal name] GmbH',
  street: '[Street and number]',
  postalCode: '[Postal code]',
  city: '[City]',
  /** The country's name in each language of the site (ADR 0089). */
  country: { en: 'Germany', de: 'Deutschland' },
  email: 'contact@platform.example',
  phone: '[Phone number]',
  managingDirectors: ['[Managing director]'],
  registration: {
    court: 'Amtsgericht [City]',
    number: 'HRB [number]',
    vatId: 'DE[VAT ID]',
  },
  banking: {
    bank: '[Bank name]',
    iban: 'DE00 [IBAN]',
    bic: '[BIC]',
  },
  careersEmail: 'careers@platform.example',
} as const;
