import { consentVersions } from '#contracts/consent-documents.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';
import { policyFacts as f } from './facts.ts';
import { retentionSentences } from './retention.ts';

// A translation for information: the German version (web/src/content/de/pages/legal/) is binding,
// like the terms and the acceptable-use policy, because the company is German and its customers
// contract under German law. The version is the one the registration wizard records consent to.
export const privacyPolicy = {
  meta: {
    title: 'Privacy Policy',
    description:
      'How we process personal data: purposes, legal bases, recipients, retention periods and your rights under the GDPR.',
  },
  title: 'Privacy Policy',
  lastUpdated: consentVersions.privacy_policy,
  lastUpdatedLabel: 'Last updated',
  binding: {
    notice: 'This English version is provided for information only. The German version is legally binding.',
    otherVersion: 'Read the German version',
  },
  intro: [
    'In accordance with Articles 13 and 14 of the General Data Protection Regulation (GDPR; in German: DSGVO), this privacy policy explains which personal data we process when you visit our website, join the waitlist, write to us, register your organization and have your identity verified.',
    `Our platform and all data we store ourselves are hosted in Amazon Web Services data centres in the ${f.awsRegion} region (${f.awsRegionNameEn}).`,
  ],
  sections: [
    {
      id: 'controller',
      heading: '1. Controller',
      slot: 'company-contact',
      paragraphs: [
        'The controller within the meaning of GDPR Art. 4(7) is the following company (further details in the Impressum):',
      ],
      after: [
        'For any question about data protection and to exercise your rights, contact us at the email address above. You can reach our data protection officer at the same address, marked "Data Protection Officer".',
      ],
    },
    {
      id: 'purposes-and-legal-bases',
      heading: '2. Purposes and legal bases of processing',
      subsections: [
        {
          id: 'website',
          heading: '2.1 Visiting the website',
          paragraphs: [
            'When you open the website, our servers and our content delivery network (Amazon CloudFront) process technically necessary data: IP address, date and time, the address requested, the amount of data transferred, the referrer and the browser identifier. This is necessary to deliver the website and to detect and fend off attacks.',
            `The legal basis is our legitimate interest in secure and stable operation (GDPR Art. 6(1)(f)). The logs (website logs) are deleted after ${f.websiteLogRetentionDays} days.`,
          ],
        },
        {
          id: 'waitlist',
          heading: '2.2 Waitlist',
          paragraphs: [
            'When you join the waitlist, we store your email address to let you know when onboarding starts. The legal basis is your consent (GDPR Art. 6(1)(a)), which you can withdraw at any time with effect for the future.',
          ],
        },
        {
          id: 'inquiries',
          heading: '2.3 Contact and investor inquiries',
          paragraphs: [
            'When you send an inquiry through the contact or the investor form, we process your name, business email address, organization and message in order to answer it. The legal basis is steps taken prior to entering into a contract (GDPR Art. 6(1)(b)) or our legitimate interest in answering business inquiries (GDPR Art. 6(1)(f)).',
          ],
        },
        {
          id: 'registration',
          heading: '2.4 Registration and customer account',
          paragraphs: [
            'When you register your organization, we process the name, role, business email address and telephone number of the responsible person, and the name, website and type of the organization. We use them to create a user account with our sign-in service Auth0 and email you the sign-in instructions. The legal basis is the performance of the contract and of steps prior to entering into it (GDPR Art. 6(1)(b)).',
            'You sign in through Auth0 with an authorization code and PKCE. Sign-in tokens are kept in your browser’s local storage so that you stay signed in; they are strictly necessary to provide the service (§ 25(2) no. 2 TDDDG, the German Telecommunications Digital Services Data Protection Act).',
          ],
        },
        {
          id: 'identity-verification',
          heading: '2.5 Identity verification (KYC) with Persona',
          paragraphs: [
            'Because our platform supports security-relevant research, we verify the identity of every person who acts for an organization. The verification is carried out by our service provider Persona: you photograph an official identity document and take a selfie; Persona compares the face in the selfie with the photo on the document (biometric matching) and checks that the document is genuine.',
            'The legal basis for the identity verification is your consent (GDPR Art. 6(1)(a)) and our legitimate interest in preventing misuse of the platform (GDPR Art. 6(1)(f)). We process biometric data solely on the basis of your explicit consent (GDPR Art. 9(2)(a)), which you give separately before the verification begins. Without this consent your access cannot be activated; you can withdraw it at any time.',
            'We store the result of the verification (pending, confirmed or rejected), the identifier of the verification and the history of decisions. The ID images, the selfie and the data read from the document remain with Persona and are deleted there once the verification is complete, or redacted on our instruction.',
          ],
        },
        {
          id: 'consent-records',
          heading: '2.6 Records of your consents',
          paragraphs: [
            'We record every consent and every acceptance of our terms (terms and conditions, privacy policy, acceptable use policy, identity verification) in a tamper-proof consent ledger: who (by a pseudonymous identifier), what (the version and checksum of the text shown), when, how (dialog or registration wizard), the language, the truncated IP address and the browser identifier. A withdrawal is recorded as a new entry; existing entries are never changed.',
            'The legal basis is our obligation to be able to demonstrate consent (GDPR Art. 7(1) in conjunction with Art. 6(1)(c)).',
          ],
        },
        {
          id: 'email',
          heading: '2.7 Sending emails',
          paragraphs: [
            'We send transactional emails (sign-in instructions, email address confirmation, the result of the identity verification, confirmation of deletion requests) through Amazon Simple Email Service (SES) in the eu-central-1 region. The legal basis is GDPR Art. 6(1)(b).',
          ],
        },
        {
          id: 'cookies',
          heading: '2.8 Cookies and local storage',
          paragraphs: [
            'We set technically necessary entries in local storage (colour scheme, your cookie choice, sign-in session) without consent. We use analytics, marketing and personalization features only with your consent (§ 25(1) TDDDG, GDPR Art. 6(1)(a)). Our cookie policy gives the details.',
          ],
        },
      ],
    },
    {
      id: 'recipients',
      heading: '3. Recipients and processors',
      paragraphs: [
        'We pass on personal data only where this is necessary for the purposes stated. Our service providers process the data as processors under GDPR Art. 28, on our instructions:',
      ],
      items: [
        `Amazon Web Services EMEA SARL (Luxembourg): hosting, databases, content delivery network and sending emails (Amazon SES), region ${f.awsRegion} (${f.awsRegionNameEn}).`,
        'Okta, Inc. or Auth0 (a platform of Okta): user accounts and sign-in, data stored in the EU.',
        'Persona Identities, Inc. (San Francisco, USA): identity verification including biometric matching.',
      ],
      after: [
        'Public authorities receive data only where we are legally obliged to provide it (GDPR Art. 6(1)(c)).',
      ],
    },
    {
      id: 'third-countries',
      heading: '4. Transfers to third countries',
      paragraphs: [
        'Persona and Okta are based in the USA. We base any transfer on the European Commission’s adequacy decision for the EU-US Data Privacy Framework where the recipient is certified, and otherwise on the European Commission’s standard contractual clauses (GDPR Art. 46(2)(c)) with supplementary measures. You can obtain a copy of these safeguards on request.',
      ],
    },
    {
      id: 'retention',
      heading: '5. Retention periods',
      paragraphs: [
        'We store personal data only for as long as the purpose requires or statutory retention obligations demand:',
      ],
      // Generated from the retention table (lambdas/contracts/retention.ts, ADR 0077).
      items: retentionSentences('en'),
      after: [
        'When the periods end, we delete the data. Data we still store only because of a retention obligation is blocked from any other use.',
      ],
    },
    {
      id: 'rights',
      heading: '6. Rights of data subjects',
      paragraphs: ['Under the GDPR you have the following rights:'],
      items: [
        'Access to the data stored about you (GDPR Art. 15)',
        'Rectification of inaccurate data (GDPR Art. 16)',
        'Erasure (GDPR Art. 17) and restriction of processing (GDPR Art. 18)',
        'Data portability (GDPR Art. 20)',
        'Objection to processing based on legitimate interests (GDPR Art. 21)',
        'Withdrawal of consent with effect for the future (GDPR Art. 7(3))',
        'Lodging a complaint with a data protection supervisory authority (GDPR Art. 77)',
      ],
      after: [
        `You can submit a deletion request at any time on our "Data Deletion" page. We handle it within ${f.deletionDeadlineDays} days (GDPR Art. 12(3)) and confirm receipt by email. Data we must keep because of a legal obligation is deleted when the retention period ends; until then it is blocked.`,
      ],
    },
    {
      id: 'automated-decisions',
      heading: '7. No solely automated decision-making',
      paragraphs: [
        'Persona proposes the result of the identity verification; in cases of doubt, and at your request, a member of our team reviews the decision. No decision based solely on automated processing within the meaning of GDPR Art. 22 takes place.',
      ],
    },
    {
      id: 'security',
      heading: '8. Data security',
      paragraphs: [
        'All connections are encrypted with TLS, and stored data is encrypted. Access is restricted to what is necessary and is logged. Our controls are audited annually against SOC 2.',
      ],
    },
    {
      id: 'changes',
      heading: '9. Changes to this privacy policy',
      paragraphs: [
        'We update this privacy policy when our processing changes. Each version is dated; after material changes we ask registered users for their consent again.',
      ],
    },
  ],
} as const satisfies PolicyDocument;
