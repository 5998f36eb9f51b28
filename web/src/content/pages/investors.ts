import type { PageMeta } from './types.ts';

export const investors = {
  meta: {
    title: 'Investors',
    description:
      'A 52B+ euro market across pharma, biosecurity and defense, and government public health. Talk to us about investing in pathogen-evolution forecasting.',
  } satisfies PageMeta,
  title: 'Investors',
  lead: 'Pathogen-evolution forecasting serves three markets that already spend billions on being too late.',
  market: {
    title: 'Market opportunity',
    segments: [
      {
        value: '€18B',
        name: 'Pharmaceutical R&D',
        body: 'Vaccine and antiviral pipelines that must anticipate the variants they will face.',
      },
      {
        value: '€22B',
        name: 'Biosecurity and defense',
        body: 'Early warning and attribution for biological threats, natural or engineered.',
      },
      {
        value: '€12B',
        name: 'Public health and government',
        body: 'Genomic surveillance programmes and pandemic preparedness agencies.',
      },
    ],
    total: {
      value: '€52B+',
      name: 'Total addressable market',
    },
  },
  form: {
    title: 'Investor inquiry',
    lead: 'Tell us about yourself and we will send our investor materials. Please use your business email address.',
    nameLabel: 'Name',
    emailLabel: 'Business email',
    organizationLabel: 'Organization',
    messageLabel: 'Message',
    optional: '(optional)',
    submit: 'Send inquiry',
    submitting: 'Sending...',
    success: 'Thank you. Our investor relations team will be in touch shortly.',
    failure: 'Your inquiry could not be sent. Please try again.',
  },
} as const;
