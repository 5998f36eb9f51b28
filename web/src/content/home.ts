export const home = {
  hero: {
    title: 'See where pathogens evolve next',
    lead: 'Genomic pathogen-evolution forecasting, powered by a quantum computing engine and, soon, a constellation of more than 50 nanosatellites.',
  },
  waitlist: {
    title: 'Join the waitlist',
    lead: 'Be the first to hear when onboarding opens for your organization.',
  },
} as const;
