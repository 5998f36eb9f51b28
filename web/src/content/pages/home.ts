import type { PageMeta } from './types.ts';

/**
 * A band of the home page, below the hero: its heading, then the parts it has, in this order. The
 * heading's id is `<name>-title`; a band whose `name` is one of the nav's home sections
 * (`homeSections`) is where the nav's link lands.
 */
export interface HomeBand<Route extends string = string> {
  name: string;
  title: string;
  /** Larger text under the heading. */
  lead?: string;
  /** Plain text under the heading. */
  intro?: string;
  cards?: readonly { title: string; body: string }[];
  claims?: readonly { figure: string; label: string; body: string }[];
  /** Small print under the claims. */
  note?: string;
  /** A checklist. */
  items?: readonly string[];
  /** Links to pages (`to`: the page's key in the route registry); the first is the primary one. */
  actions?: readonly { label: string; to: Route }[];
  form?: 'waitlist';
}

export const home = {
  meta: {
    title: 'Genomic pathogen-evolution forecasting',
    description:
      'Forecast how pathogens evolve with a quantum computing engine, validated at 98.7% accuracy on two public benchmarks. For enterprise, pharma, defense and biosecurity organizations.',
  } satisfies PageMeta,
  hero: {
    eyebrow: 'Forecasting pathogen evolution',
    title: 'See where pathogens evolve next',
    lead: 'Genomic pathogen-evolution forecasting, powered by a quantum computing engine and, soon, a constellation of more than 50 nanosatellites.',
    /** Registration, the product's way in, is the hero's first action (ADR 0086). */
    register: 'Register your organization',
    primaryAction: 'Request beta access',
    secondaryAction: 'Explore the framework',
  },
  /** The bands below the hero (`HomeBand`), in page order; the page shades every other one. */
  sections: [
    {
      name: 'framework',
      title: 'Our Framework',
      lead: 'The Quantum Engine turns genomic surveillance data into forecasts of which mutations a pathogen is likely to acquire next, and what they will change.',
      cards: [
        {
          title: 'The Quantum Engine',
          body: 'Hybrid quantum-classical algorithms explore the fitness landscape of a genome far faster than classical sampling, scoring millions of candidate mutation paths per run.',
        },
        {
          title: 'RNA structure modelling',
          body: 'Every RNA structure type, from secondary folds to pseudoknots and tertiary contacts, is modelled so that predicted mutations are judged by how they change the molecule, not only its sequence.',
        },
        {
          title: 'Molecular simulation',
          body: 'Candidate variants are simulated against host receptors and known antibodies to estimate transmissibility and immune escape before they appear in the field.',
        },
        {
          title: 'Predictive evolution analysis',
          body: 'Forecasts come with confidence intervals, lineage trees and the evidence behind each prediction, ready for review by your own scientists.',
        },
      ],
    },
    {
      name: 'vision',
      title: 'The Vision',
      lead: 'A constellation of 50+ nanosatellites will carry genomic sequencing data from remote field stations to the Quantum Engine within minutes, wherever an outbreak begins.',
      cards: [
        {
          title: '50+ nanosatellites',
          body: 'A low-earth-orbit constellation gives continuous coverage, so field laboratories without reliable internet can still report new sequences.',
        },
        {
          title: 'From sample to forecast in hours',
          body: 'Sequences reach the engine the day they are taken, and forecasts update as soon as a new variant is observed.',
        },
        {
          title: 'Built for sovereign operation',
          body: 'Defense and government organizations can keep their data within their own jurisdiction and ground segment.',
        },
      ],
    },
    {
      name: 'claims',
      title: 'Proven where it matters',
      claims: [
        {
          figure: '98.7%',
          label: 'accuracy',
          body: 'on the Variant Emergence Forecasting Benchmark (VEF-2024) and the Retrospective Lineage Prediction Suite (RLPS v3).',
        },
        {
          figure: 'SOC 2',
          label: 'compliance',
          body: 'Type II controls for security, availability and confidentiality, audited every year.',
        },
        {
          figure: '24/7',
          label: 'support',
          body: 'Scientists and engineers on call around the clock for every organization on the platform.',
        },
      ],
      note: 'Accuracy is measured as the share of variants correctly forecast six months before they reached 1% prevalence, on the held-out test sets of both benchmarks.',
    },
    {
      name: 'account',
      title: 'An account for your organization',
      lead: 'Registered organizations get a verified workspace on the platform.',
      items: [
        'Access to the Quantum Engine and all RNA structure types',
        'Unlimited genomic data uploads and API access',
        'A dashboard for your segment: commercial, or defense and government',
        'Identity-verified team members, so only your people see your data',
      ],
      actions: [
        { label: 'Register your organization', to: 'register' },
        { label: 'See pricing', to: 'pricing' },
      ],
    },
    {
      name: 'waitlist',
      title: 'Join the waitlist',
      intro: 'Be the first to hear when onboarding opens for your organization.',
      form: 'waitlist',
    },
  ],
} as const;
