import type { PageMeta } from './types.ts';

export const documentation = {
  meta: {
    title: 'Documentation',
    description:
      'Platform documentation, API reference and integration guides are available to verified organizations. Register your organization to get access.',
  } satisfies PageMeta,
  title: 'Documentation',
  lead: 'The full documentation is available to verified organizations once they sign in.',
  includesTitle: 'What verified organizations get',
  includes: [
    'The Quantum Engine user guide: runs, parameters and how to read a forecast',
    'The API reference, with authentication, rate limits and examples',
    'Data upload formats for genomic sequences and metadata (FASTA, FASTQ, VCF)',
    'Benchmark validation tools and how to reproduce our published results',
    'Security and compliance documentation for your procurement team',
  ],
  howTitle: 'How to get access',
  how: 'Register your organization, confirm your email address and verify your identity. Access opens as soon as your verification is approved.',
  register: 'Register your organization',
} as const;
