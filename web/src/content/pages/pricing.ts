import type { PageMeta } from './types.ts';

export const pricing = {
  meta: {
    title: 'Pricing',
    description:
      'One Organization Plan with custom pricing: the Quantum Engine, unlimited genomic data, API access, priority support and dedicated account management.',
  } satisfies PageMeta,
  title: 'Pricing',
  lead: 'One plan, shaped around your organization.',
  plan: {
    name: 'Organization Plan',
    price: 'Custom pricing',
    priceNote: 'Priced by the size of your team and your data volumes. Billed annually.',
    featuresTitle: 'Everything in the plan',
    features: [
      'Access to the Quantum Engine',
      'All RNA structure types',
      'Unlimited genomic data uploads',
      'Molecular simulation',
      'Predictive pathogen evolution analysis',
      'API access',
      'Priority support',
      'Benchmark validation tools',
      'Custom algorithm development',
      'Dedicated account management',
    ],
    cta: 'Contact sales',
  },
  faqTitle: 'Questions',
  faq: [
    {
      question: 'Who can subscribe?',
      answer:
        'Enterprise, pharma, defense, biosecurity, academic and government organizations. Every organization is verified before it gets access.',
    },
    {
      question: 'Can we try the platform first?',
      answer: 'Yes. Talk to our sales team about a pilot with your own data.',
    },
  ],
} as const;
