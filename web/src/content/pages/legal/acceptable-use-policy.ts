import { consentVersions } from '#contracts/consent-documents.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';

// A translation for information: the German version (web/src/content/de/pages/legal/) is binding.
// The registration wizard records agreement to this text as the "non-harmful use" purpose.
export const acceptableUsePolicy = {
  meta: {
    title: 'Acceptable Use Policy',
    description:
      'What the platform may be used for and what never: protection against pathogens, never creating or enhancing pathogens.',
  },
  title: 'Acceptable Use Policy',
  lastUpdated: consentVersions.non_harmful_use,
  lastUpdatedLabel: 'Last updated',
  binding: {
    notice: 'This English version is provided for information only. The German version is legally binding.',
    otherVersion: 'Read the German version',
  },
  intro: [
    'Our platform forecasts how pathogens change. This knowledge serves to protect people, animals and plants. This policy sets out what the platform may be used for and what it may never be used for. It forms part of our terms and conditions.',
  ],
  sections: [
    {
      id: 'purpose',
      heading: '1. Purpose of the platform',
      paragraphs: [
        'The platform supports the development of vaccines, therapeutics and diagnostics, public health surveillance, early warning of biological threats, and research for these purposes.',
      ],
    },
    {
      id: 'permitted-use',
      heading: '2. Permitted use',
      items: [
        'Forecasting variants to prepare vaccines, medicines and tests',
        'Genomic surveillance and assessment of newly emerging variants',
        'Defense and biosecurity analyses to protect against biological threats',
        'Academic research within recognized ethical standards',
      ],
    },
    {
      id: 'prohibited-use',
      heading: '3. Prohibited use',
      paragraphs: ['The platform must never be used to:'],
      items: [
        'create or modify pathogens, or enhance their transmissibility, virulence or immune escape ("gain of function" with the aim of causing harm)',
        'develop, produce or spread biological weapons, contrary to the Biological Weapons Convention',
        'deliberately circumvent protective measures such as vaccines, diagnostics or surveillance systems',
        'pass on results to persons or organizations that have not been verified or are subject to sanctions',
        'attack the security of the platform, circumvent access restrictions or share access',
      ],
    },
    {
      id: 'export-control',
      heading: '4. Export control and sanctions',
      paragraphs: [
        'The Customer complies with the export control regulations of the European Union (in particular the Dual-Use Regulation (EU) 2021/821), of Germany and of any other applicable jurisdiction, and with all sanctions lists. Access from countries under embargo is prohibited.',
      ],
    },
    {
      id: 'monitoring',
      heading: '5. Verification and monitoring',
      paragraphs: [
        'Every organization and every person acting for it is verified before being given access. We may examine the use of the platform for patterns that indicate prohibited use, and log queries and results for this purpose.',
      ],
    },
    {
      id: 'reporting',
      heading: '6. Reporting violations',
      paragraphs: [
        'If you suspect a violation of this policy, please report it through our contact form or to the address given in the Impressum. We treat reports confidentially.',
      ],
    },
    {
      id: 'enforcement',
      heading: '7. Enforcement',
      paragraphs: [
        'In the event of a violation, we may block access immediately and terminate the contract for good cause without notice. Where there are indications of a criminal offence, we inform the competent authorities.',
      ],
    },
    {
      id: 'changes',
      heading: '8. Changes',
      paragraphs: [
        'We adapt this policy to new risks and legislation. After material changes we ask registered users for their agreement again.',
      ],
    },
  ],
} as const satisfies PolicyDocument;
