import type { PageMeta } from './types.ts';

export const contact = {
  meta: {
    title: 'Contact sales',
    description:
      'Talk to our team about the Organization Plan, a pilot with your own genomic data, or a partnership. We answer within one business day.',
  } satisfies PageMeta,
  title: 'Contact us',
  lead: 'Tell us what your organization needs and our sales team will answer within one business day. Please use your business email address.',
  form: {
    title: 'Send us a message',
    nameLabel: 'Name',
    emailLabel: 'Business email',
    organizationLabel: 'Organization',
    messageLabel: 'Message',
    submit: 'Send message',
    submitting: 'Sending...',
    success: 'Thank you for your message. We will get back to you within one business day.',
    failure: 'Your message could not be sent. Please try again.',
  },
  other: {
    title: 'Other questions',
    press: 'Press and partnerships: use the form above and tell us who you are.',
    privacy: 'Privacy and your data:',
    privacyLink: 'request deletion of your data',
  },
} as const;
