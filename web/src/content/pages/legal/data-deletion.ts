import type { PolicyDocument } from '#web/content/pages/types.ts';
import { policyFacts as f } from './facts.ts';

export const dataDeletion = {
  meta: {
    title: 'Data Deletion',
    description: `Ask us to delete your personal data. We process every deletion request within ${f.deletionDeadlineDays} days and tell you what we must keep by law.`,
  },
  title: 'Data Deletion',
  lastUpdated: '2025-06-08',
  lastUpdatedLabel: 'Last updated',
  intro: [
    `You can ask us to delete the personal data we hold about you (GDPR Art. 17). We process every deletion request within ${f.deletionDeadlineDays} days of its confirmation by the owner of the email address.`,
  ],
  sections: [
    {
      id: 'deleted',
      heading: 'What we delete',
      items: [
        'Your account with our identity provider, and your registration details',
        'Waitlist entries, contact messages and investor inquiries sent from your address',
        'Your identity documents, selfie and extracted data at our verification partner Persona, which we ask to redact',
      ],
    },
    {
      id: 'kept',
      heading: 'What we must keep',
      paragraphs: ['Some records must outlive a deletion request because the law requires them:'],
      items: [
        `Contract data and the records of your consents: ${f.contractRetentionYears} years.`,
        `KYC data (the outcome and history of your identity verification): ${f.kycRetentionYears} years after the business relationship ends.`,
        `Financial records: about ${f.financialRecordsYears} years.`,
        `Website logs: ${f.websiteLogRetentionDays} days, after which they are deleted anyway.`,
        'Your deletion request itself, as proof that we received and answered it.',
      ],
      after: ['Kept records are blocked for any other use and deleted when their period ends.'],
    },
    {
      id: 'request',
      heading: 'Request deletion',
      paragraphs: [
        `Enter the email address whose data should be deleted. We will send a link to that address; the request counts once it is confirmed through that link, within ${f.deletionConfirmationHours} hours, and we then complete it within ${f.deletionDeadlineDays} days. If you are signed in, you can also ask from your account page, without the link.`,
      ],
      slot: 'deletion-form',
    },
  ],
  form: {
    emailLabel: 'Email address',
    nameLabel: 'Name',
    detailsLabel: 'Details',
    detailsHint: 'Anything that helps us find your data, such as your organization.',
    optional: '(optional)',
    submit: 'Request deletion',
    submitting: 'Sending...',
    failure: 'Your request could not be sent. Please try again.',
    receivedTitle: 'Check your inbox to confirm',
    requestIdLabel: 'Request ID',
    receivedBody: `We have sent a link to the address you gave. Open it within ${f.deletionConfirmationHours} hours and confirm the request: nothing is deleted until you do. Once confirmed, we complete your request within ${f.deletionDeadlineDays} days.`,
  },
} as const satisfies PolicyDocument & { form: Record<string, string> };
