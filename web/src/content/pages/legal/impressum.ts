import type { PageMeta } from '#web/content/pages/types.ts';

// Labels only: the values come from web/src/content/company.ts, the one file that holds them.
export const impressum = {
  meta: {
    title: 'Impressum',
    description:
      'Legal notice (Impressum) under § 5 DDG: company name, address, managing directors, commercial register, VAT ID and banking details.',
  } satisfies PageMeta,
  title: 'Impressum',
  lead: 'Legal notice under § 5 of the German Digital Services Act (DDG).',
  provider: 'Service provider',
  contact: 'Contact',
  email: 'Email',
  phone: 'Phone',
  representedBy: 'Managing directors',
  registration: 'Company registration',
  court: 'Register court',
  number: 'Registration number',
  vatId: 'VAT ID (§ 27a UStG)',
  banking: 'Banking details',
  bank: 'Bank',
  iban: 'IBAN',
  bic: 'BIC',
  responsible: 'Responsible for content (§ 18 (2) MStV)',
  disputeTitle: 'Dispute resolution',
  dispute:
    'We are neither obliged nor willing to take part in dispute resolution proceedings before a consumer arbitration board.',
} as const;
