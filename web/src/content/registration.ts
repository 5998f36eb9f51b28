import { registrationDocuments as consentDocuments } from '#contracts/consent-documents.ts';
import { organizationTypeOptions } from './organization.ts';
import type { PageMeta } from './pages/types.ts';

// The registration wizard's copy. Validation messages are not here: they come from the contract
// (#contracts/registration.ts, #contracts/business-email.ts), so the page and the API agree.

export const registration = {
  meta: {
    title: 'Register your organization',
    description:
      'Create an account for your organization in three short steps: the responsible person, the organization and the agreements.',
  } satisfies PageMeta,
  title: 'Register your organization',
  lead: 'Three short steps. Use your business email address: your login instructions are sent there.',
  progressLabel: 'Registration progress',
  stepCount: (step: number, total: number) => `Step ${step} of ${total}`,
  stepState: { done: 'completed', current: 'current step', upcoming: 'not started' },
  steps: {
    responsible: {
      title: 'Responsible party',
      intro: 'The person who holds the account and answers for its use.',
    },
    organization: {
      title: 'Organization',
      intro: 'The organization the account is for. Its type decides which dashboard it gets.',
    },
    agreements: {
      title: 'Agreements',
      intro: 'Please read and accept each of these to create the account.',
    },
  },
  fields: {
    responsibleName: { label: 'Full name' },
    responsibleTitle: { label: 'Job title' },
    responsibleEmail: {
      label: 'Business email',
      hint: 'Your work address. Personal addresses (Gmail, Yahoo, etc.) are not accepted.',
    },
    responsiblePhone: { label: 'Phone number', hint: 'With the country code, for example +49 30 1234567.' },
    organizationName: { label: 'Organization name' },
    organizationUrl: {
      label: 'Website',
      hint: 'Your organization’s public website, for example helix-labs.com.',
    },
    organizationType: { label: 'Organization type', placeholder: 'Select organization type' },
  },
  /** In the order the select offers them. */
  organizationTypes: organizationTypeOptions,
  /**
   * Each checkbox shows the exact statement whose version and hash the consent ledger records for
   * the registration (#contracts/consent-documents.ts), and links to the document it refers to.
   */
  agreements: {
    termsAgreed: {
      statement: consentDocuments.terms_of_service.statements[0]?.text ?? '',
      read: 'Read the terms of service',
    },
    privacyAgreed: {
      statement: consentDocuments.privacy_policy.statements[0]?.text ?? '',
      read: 'Read the privacy policy',
    },
    nonHarmAgreed: {
      statement: consentDocuments.non_harmful_use.statements[0]?.text ?? '',
      read: 'Read the acceptable use policy',
    },
  },
  /** After each document link: the documents open beside the form, in the reader's language. */
  documentNote: '(opens in a new tab)',
  whatNext: {
    title: 'What happens next',
    items: [
      'We create your account and email your login instructions to your business address.',
      'Follow the link in the email to set your password, then log in.',
      'Verify your identity with our partner Persona: a government-issued photo ID and a selfie, about five minutes.',
      'Once the verification is approved, your organization’s dashboard opens.',
    ],
  },
  /** People never see it; bots fill it (see the contract's `website`). */
  honeypotLabel: 'Leave this field empty',
  /** On the last step: the address the login instructions go to, before Create Account. */
  review: { label: 'Your login instructions will be sent to', change: 'Change email' },
  continue: 'Continue',
  back: 'Back',
  submit: 'Create Account',
  submitting: 'Creating Account...',
  home: 'Back to Home',
  success: {
    title: 'Registration Successful!',
    description: 'Your account has been created. Please check your email for login instructions.',
  },
  failure: {
    title: 'Registration Failed',
    /** No answer from the server (offline, timeout) or an answer that makes no sense. */
    fallback: 'Unable to create your account. Please try again.',
    /** The server refused without saying why. */
    refused: 'Registration failed',
  },
} as const;
