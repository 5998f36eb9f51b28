import type { PageMeta } from './types.ts';

export interface Role {
  id: string;
  title: string;
  type: string;
  location: string;
  description: string;
  requirements: readonly string[];
}

export const careers = {
  meta: {
    title: 'Careers',
    description:
      'Join the team building quantum-powered pathogen-evolution forecasting and a constellation of 50+ nanosatellites.',
  } satisfies PageMeta,
  title: 'Careers',
  lead: 'Help the world see the next pandemic coming. We are a small team of biologists, physicists and engineers.',
  rolesTitle: 'Open roles',
  typeLabel: 'Type',
  locationLabel: 'Location',
  requirementsTitle: 'What you bring',
  apply: 'Apply Now',
  /** The accessible name of an Apply Now link, which must say which role it is for. */
  applyFor: (title: string) => `Apply now for ${title}`,
  applicationSubject: (title: string) => `Application: ${title}`,
  applicationBody: (title: string) =>
    `Hello,\n\nI would like to apply for the ${title} position.\n\nPlease find my CV attached.\n\nBest regards,\n`,
  general: {
    title: 'No role for you yet?',
    body: 'We are always glad to hear from exceptional people. Tell us what you would like to work on.',
    action: 'General Application',
    subject: 'General application',
    mailBody:
      'Hello,\n\nI would like to join your team. Here is what I would like to work on:\n\n\nBest regards,\n',
  },
  roles: [
    {
      id: 'quantum-algorithm-scientist',
      title: 'Quantum Algorithm Scientist',
      type: 'Full-time',
      location: 'Berlin, Germany (hybrid)',
      description:
        'Design and benchmark the hybrid quantum-classical algorithms at the heart of the Quantum Engine, from fitness-landscape sampling to variational models of RNA folding.',
      requirements: [
        'PhD in physics, computer science or a related field',
        'Hands-on experience with variational or annealing-based quantum algorithms',
        'Fluent Python; experience with Qiskit, Cirq or PennyLane',
        'Interest in computational biology',
      ],
    },
    {
      id: 'computational-virologist',
      title: 'Computational Virologist',
      type: 'Full-time',
      location: 'Remote (EU time zones)',
      description:
        'Turn genomic surveillance data into validated forecasts: curate benchmarks, evaluate predictions against real lineages and work with customers on their pathogens of concern.',
      requirements: [
        'PhD or equivalent experience in virology, evolutionary biology or bioinformatics',
        'Experience with phylogenetics tools (Nextstrain, IQ-TREE, BEAST)',
        'Solid statistics and reproducible research practice',
        'Clear writing for scientific and non-scientific readers',
      ],
    },
    {
      id: 'satellite-systems-engineer',
      title: 'Satellite Systems Engineer',
      type: 'Full-time',
      location: 'Munich, Germany (on site)',
      description:
        'Shape the nanosatellite constellation of our satellite vision: payload data links, ground segment integration and the secure path from field station to forecast.',
      requirements: [
        'Degree in aerospace, electrical or systems engineering',
        'Experience with CubeSat or small-satellite missions',
        'Knowledge of space communication links (S-band, X-band) and CCSDS protocols',
        'Eligibility for security clearance is a plus',
      ],
    },
  ] satisfies readonly Role[],
} as const;
