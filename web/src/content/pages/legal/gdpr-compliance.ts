import type { PolicyDocument } from '#web/content/pages/types.ts';
import { policyFacts as f } from './facts.ts';

export const gdprCompliance = {
  meta: {
    title: 'GDPR Compliance',
    description:
      'How the platform complies with the GDPR: EU hosting in Frankfurt, legal bases, consent records, retention periods, processors and your rights.',
  },
  title: 'GDPR Compliance',
  lastUpdated: '2025-06-08',
  lastUpdatedLabel: 'Last updated',
  intro: [
    'We build the platform for organizations that handle sensitive data, so data protection is part of its design. This page summarises how we comply with the General Data Protection Regulation (GDPR); the full details are in our privacy policy, whose German version is binding.',
  ],
  sections: [
    {
      id: 'residency',
      heading: 'Data residency',
      paragraphs: [
        `The platform runs on Amazon Web Services in the region ${f.awsRegion} (${f.awsRegionNameEn}). Everything we store ourselves stays there, encrypted at rest and in transit.`,
      ],
    },
    {
      id: 'legal-bases',
      heading: 'Legal bases',
      items: [
        'Contract (Art. 6(1)(b)): registration, your account, the service itself and transactional email.',
        'Consent (Art. 6(1)(a) and, for biometric data, Art. 9(2)(a)): the waitlist, identity verification, optional cookies.',
        'Legal obligation (Art. 6(1)(c)): consent records, tax and commercial records, anti-money-laundering records.',
        'Legitimate interests (Art. 6(1)(f)): security logs and answering business inquiries.',
      ],
    },
    {
      id: 'consent',
      heading: 'Provable consent',
      paragraphs: [
        'Every consent and every agreement to our terms is written to an append-only consent ledger: who (by an opaque identifier), what (the version and a SHA-256 hash of the exact text shown), when, how, and a hash of the previous record, so that any tampering is evident. Withdrawing consent adds a new record; nothing is overwritten.',
      ],
    },
    {
      id: 'identity',
      heading: 'Identity verification',
      paragraphs: [
        'Identity verification uses Persona and a face comparison between a selfie and an ID photo, only after separate, explicit consent to the processing of biometric data. We keep the outcome and its history; the images stay with Persona and are redacted when they are no longer needed.',
      ],
    },
    {
      id: 'processors',
      heading: 'Processors',
      paragraphs: ['We work only with processors bound by a data processing agreement (Art. 28):'],
      items: [
        'Amazon Web Services: hosting, databases, content delivery and email (Amazon SES).',
        'Auth0 by Okta: accounts and sign-in.',
        'Persona: identity verification. Transfers to the USA rely on the EU-US Data Privacy Framework or Standard Contractual Clauses.',
      ],
    },
    {
      id: 'retention',
      heading: 'Retention',
      items: [
        `Contract data and consent records: ${f.contractRetentionYears} years.`,
        `KYC data: ${f.kycRetentionYears} years after the business relationship ends.`,
        `Financial records: about ${f.financialRecordsYears} years.`,
        `Website logs: ${f.websiteLogRetentionDays} days.`,
      ],
    },
    {
      id: 'rights',
      heading: 'Your rights',
      paragraphs: [
        `You may ask for access, rectification, erasure, restriction, portability, or object to processing, and withdraw consent at any time. We answer within ${f.deletionDeadlineDays} days. Deletion requests can be made on our data deletion page; you may also complain to a supervisory authority.`,
      ],
    },
    {
      id: 'security',
      heading: 'Security',
      paragraphs: [
        'Least-privilege access, encryption, audit logging, a strict content security policy on this website, and controls audited every year for SOC 2.',
      ],
    },
  ],
} as const satisfies PolicyDocument;
