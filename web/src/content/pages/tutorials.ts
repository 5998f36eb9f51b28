import type { PageMeta } from './types.ts';

export const tutorials = {
  meta: {
    title: 'Tutorials',
    description:
      'Step-by-step tutorials for the Quantum Engine: from your first genome upload to a full evolution forecast. Available to verified organizations.',
  } satisfies PageMeta,
  title: 'Tutorials',
  lead: 'Guided tutorials take your team from the first upload to a validated forecast.',
  includesTitle: 'What verified organizations get',
  includes: [
    'Your first forecast: upload a sequence set and read the results',
    'Modelling RNA structures and what their changes mean',
    'Running molecular simulations against host receptors',
    'Automating forecasts through the API',
    'Validating forecasts against your own historical data',
  ],
  howTitle: 'How to get access',
  how: 'Tutorials open in your dashboard once your organization is registered and your identity is verified.',
  register: 'Register your organization',
} as const;
