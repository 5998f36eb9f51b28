import { consentVersions } from '#contracts/consent-documents.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';
import { policyFacts as f } from './facts.ts';

// A translation for information: the German version (web/src/content/de/pages/legal/) is binding.
// The version is the one the registration wizard records agreement to (the consent ledger).
export const termsAndConditions = {
  meta: {
    title: 'Terms and Conditions',
    description:
      'Terms and conditions for using the platform: conclusion of the contract, services, right of withdrawal, term and liability.',
  },
  title: 'Terms and Conditions',
  lastUpdated: consentVersions.terms_of_service,
  lastUpdatedLabel: 'Last updated',
  binding: {
    notice: 'This English version is provided for information only. The German version is legally binding.',
    otherVersion: 'Read the German version',
  },
  intro: [
    'These General Terms and Conditions (in German: Allgemeine Geschäftsbedingungen, AGB) apply to all contracts for the use of our platform for forecasting the evolution of pathogens (the "Platform") between us (the provider, see the Impressum) and the registered organization (the "Customer").',
  ],
  sections: [
    {
      id: 'scope',
      heading: '1. Scope',
      paragraphs: [
        'The Platform is intended for companies, research institutions, public authorities and organizations in the pharmaceutical, defense and biosecurity sectors. Any conflicting terms of the Customer apply only if we expressly agree to them in writing.',
        'The Acceptable Use Policy and the End User License Agreement (EULA) form part of these terms and conditions.',
      ],
    },
    {
      id: 'conclusion-of-contract',
      heading: '2. Registration and conclusion of the contract',
      paragraphs: [
        'The Customer registers its organization through the registration wizard and, in doing so, agrees to these terms and conditions, the privacy policy and the Acceptable Use Policy. Each agreement is recorded with its version and time in our consent ledger.',
        'The contract is concluded when we have confirmed the identity verification of the responsible person and activated access. We may decline a registration without giving reasons, in particular if the identity verification fails or there are doubts about permissible use.',
      ],
    },
    {
      id: 'identity-verification',
      heading: '3. Identity verification',
      paragraphs: [
        'Every person acting for the Customer must have their identity verified by our service provider Persona. The Customer ensures that only verified persons access the Platform and that access credentials are not passed on.',
      ],
    },
    {
      id: 'services',
      heading: '4. Services',
      paragraphs: [
        'We provide the Platform to the Customer as software as a service to the agreed extent, in particular the Quantum Engine, RNA structure modelling, molecular simulations, forecasts of pathogen evolution and API access. The exact scope follows from the individual offer for the Organization Plan.',
        'Forecasts are scientific model statements with stated confidence intervals. They do not replace the Customer’s own expert assessment.',
        'We provide an availability of 99.5% as a monthly average, excluding announced maintenance windows. Our support is available around the clock (24/7).',
      ],
    },
    {
      id: 'customer-obligations',
      heading: '5. Obligations of the Customer',
      items: [
        'The Customer uses the Platform solely in accordance with the Acceptable Use Policy and in compliance with export control and sanctions regulations.',
        'The Customer uploads only data it is entitled to use. Personal patient data may be uploaded only in pseudonymized form.',
        'The Customer informs us without delay of any suspected misuse of its access.',
      ],
    },
    {
      id: 'prices',
      heading: '6. Prices and payment',
      paragraphs: [
        'The prices agreed in the offer apply, plus statutory VAT. Invoices are payable without deduction within 30 days of receipt. If payment is late, we may block access after prior notice.',
      ],
    },
    {
      id: 'right-of-withdrawal',
      heading: '7. Right of withdrawal for digital services',
      paragraphs: [
        `Where the Customer is a consumer, it has the right to withdraw from this contract within ${f.withdrawalDays} days without giving any reason. The withdrawal period is ${f.withdrawalDays} days from the day the contract is concluded. To meet the deadline, it is sufficient to send a clear statement (e.g. by email) to the address given in the Impressum before the period expires.`,
        'If the Customer requested that the service begin during the withdrawal period, it pays a reasonable amount for the services provided until the withdrawal. The right of withdrawal expires when we have fully provided the service and the Customer has previously given its express consent and acknowledged that it loses its right of withdrawal (§ 356(4) BGB, the German Civil Code).',
        'Entrepreneurs within the meaning of § 14 BGB have no statutory right of withdrawal.',
      ],
    },
    {
      id: 'term-and-termination',
      heading: '8. Term and termination',
      paragraphs: [
        'The contract runs for twelve months and is renewed for a further twelve months each time unless it is terminated with three months’ notice to the end of the term. The right to terminate for good cause without notice remains unaffected; for us, good cause exists in particular if the Acceptable Use Policy is breached.',
        'After the contract ends, we make the Customer’s data available for export for 30 days and then delete it, unless retention obligations apply.',
      ],
    },
    {
      id: 'rights',
      heading: '9. Rights to results and intellectual property',
      paragraphs: [
        'The data uploaded by the Customer and the forecasts generated for it belong to the Customer. All rights to the Platform, its algorithms and models remain with us. Customer data is used to train our models only with the Customer’s express consent.',
      ],
    },
    {
      id: 'confidentiality',
      heading: '10. Confidentiality and data protection',
      paragraphs: [
        'Each party treats the other party’s confidential information as confidential. Where we process personal data on the Customer’s behalf, the parties conclude a data processing agreement under GDPR Art. 28. Otherwise, our privacy policy applies.',
      ],
    },
    {
      id: 'liability',
      heading: '11. Liability',
      paragraphs: [
        'We are liable without limitation for intent and gross negligence, for injury to life, body or health, and under the German Product Liability Act (Produkthaftungsgesetz). In the event of a slightly negligent breach of an essential contractual obligation, liability is limited to the foreseeable damage typical for this type of contract. Otherwise, liability for slight negligence is excluded.',
      ],
    },
    {
      id: 'retention',
      heading: '12. Retention of contract data',
      paragraphs: [
        `We keep contract data and the records of agreement to these terms and conditions for ${f.contractRetentionYears} years, financial records for about ${f.financialRecordsYears} years and KYC data for ${f.kycRetentionYears} years after the business relationship ends, as statutory retention obligations require.`,
      ],
    },
    {
      id: 'final-provisions',
      heading: '13. Final provisions',
      paragraphs: [
        'The law of the Federal Republic of Germany applies, excluding the UN Convention on Contracts for the International Sale of Goods (CISG). If the Customer is a merchant, a legal entity under public law or a special fund under public law, the place of jurisdiction is our registered office. Should any provision be invalid, the validity of the remaining provisions remains unaffected.',
      ],
    },
  ],
} as const satisfies PolicyDocument;
