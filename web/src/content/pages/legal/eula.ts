import type { PolicyDocument } from '#web/content/pages/types.ts';
import { policyFacts as f } from './facts.ts';

export const eula = {
  meta: {
    title: 'End User License Agreement',
    description:
      'The End User License Agreement for the platform: license grant, restrictions, customer data, fees and withdrawal, liability and governing law.',
  },
  title: 'End User License Agreement',
  lastUpdated: '2025-06-08',
  lastUpdatedLabel: 'Last updated',
  viewer: {
    lead: 'Read the agreement below, or jump to a section from the contents.',
    contents: 'Contents',
    region: 'End User License Agreement text',
  },
  intro: [
    'This End User License Agreement ("Agreement") governs the use of the platform, its Quantum Engine, its APIs and its documentation (together, the "Service") by every person who uses it on behalf of a registered organization ("Customer").',
  ],
  sections: [
    {
      id: 'definitions',
      heading: '1. Definitions',
      items: [
        '"Authorized User": a person acting for the Customer whose identity has been verified.',
        '"Customer Data": genomic sequences, metadata and other data the Customer uploads.',
        '"Outputs": forecasts, simulations and reports the Service produces for the Customer.',
      ],
    },
    {
      id: 'license',
      heading: '2. License grant',
      paragraphs: [
        'Subject to this Agreement and payment of the fees, we grant the Customer a non-exclusive, non-transferable, non-sublicensable license for the subscription term to let its Authorized Users access and use the Service for the Customer’s internal purposes.',
      ],
    },
    {
      id: 'restrictions',
      heading: '3. Restrictions',
      paragraphs: ['The Customer and its Authorized Users must not:'],
      items: [
        'use the Service in breach of the Acceptable Use Policy, in particular to create or enhance pathogens;',
        'share credentials, or let anyone who has not been verified use the Service;',
        'reverse engineer, decompile or copy the Service or its models, except as the law expressly permits;',
        'use the Service to build a competing product, or benchmark it publicly without our written consent.',
      ],
    },
    {
      id: 'ownership',
      heading: '4. Ownership',
      paragraphs: [
        'We own the Service and all intellectual property in it. The Customer owns Customer Data and Outputs. We use Customer Data only to provide the Service, and to train our models only with the Customer’s express permission.',
      ],
    },
    {
      id: 'data',
      heading: '5. Customer Data and privacy',
      paragraphs: [
        `Customer Data is stored in the AWS region ${f.awsRegion} (${f.awsRegionNameEn}) and encrypted at rest and in transit. Where we process personal data for the Customer, the data processing agreement applies; our privacy policy explains the rest.`,
      ],
    },
    {
      id: 'confidentiality',
      heading: '6. Confidentiality',
      paragraphs: [
        'Each party keeps the other’s confidential information confidential and uses it only to perform this Agreement, during its term and for five years after it ends.',
      ],
    },
    {
      id: 'fees',
      heading: '7. Fees and withdrawal',
      paragraphs: [
        'Fees are set in the Customer’s order for the Organization Plan and are billed annually in advance.',
        `A Customer who is a consumer may withdraw from the contract within ${f.withdrawalDays} days of its conclusion without giving reasons (withdrawal right for digital services). If the Customer asked us to begin within that period, it pays for the services provided until the withdrawal.`,
      ],
    },
    {
      id: 'term',
      heading: '8. Term and termination',
      paragraphs: [
        'This Agreement runs with the Customer’s subscription. Either party may terminate it for material breach. We may suspend access immediately if the Acceptable Use Policy is breached. After termination the Customer may export its data for 30 days; we then delete it, except records we must keep by law.',
      ],
    },
    {
      id: 'retention',
      heading: '9. Records we keep',
      paragraphs: [
        `We keep contract records ${f.contractRetentionYears} years, financial records about ${f.financialRecordsYears} years and identity-verification (KYC) records ${f.kycRetentionYears} years after the relationship ends, as the law requires.`,
      ],
    },
    {
      id: 'warranty',
      heading: '10. Warranty',
      paragraphs: [
        'We will provide the Service with reasonable skill and care. Outputs are scientific forecasts with stated confidence; they do not replace the Customer’s own expert judgement, and we do not warrant that any forecast will come true.',
      ],
    },
    {
      id: 'liability',
      heading: '11. Limitation of liability',
      paragraphs: [
        'We are liable without limit for intent, gross negligence and injury to life, body or health. For slight negligence we are liable only for breach of an essential obligation and only up to the foreseeable damage typical for this kind of contract.',
      ],
    },
    {
      id: 'export',
      heading: '12. Export control',
      paragraphs: [
        'The Customer complies with the export control and sanctions laws of the European Union, Germany and any other applicable jurisdiction, including Regulation (EU) 2021/821 on dual-use items.',
      ],
    },
    {
      id: 'law',
      heading: '13. Governing law',
      paragraphs: [
        'This Agreement is governed by the laws of the Federal Republic of Germany, excluding the UN Convention on Contracts for the International Sale of Goods. The courts at our registered office have jurisdiction where the law allows.',
      ],
    },
    {
      id: 'contact',
      heading: '14. Contact',
      paragraphs: ['Questions about this Agreement: write to us at the address in the Impressum.'],
    },
  ],
} as const satisfies PolicyDocument & { viewer: Record<string, string> };
