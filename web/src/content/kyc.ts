// Copy of the identity-verification screens: /kyc/start and its consent dialog, and the two status
// screens (/kyc/persona's own is in ./kyc-persona.ts, so the heaviest signed-in route carries none of
// this). The consent statements themselves are not here: the dialog shows
// `consentDocuments.identity_verification` (#contracts/consent-documents.ts), the exact text whose
// version and hash the consent ledger records.
import { company } from './company.ts';

/** The company's mail domain, so every address below follows company.ts (checked before a release). */
const mailDomain = company.email.slice(company.email.lastIndexOf('@') + 1);

/**
 * Where a user whose verification was not successful turns. Support is the company's contact
 * address; defense and government organizations have their own team at the same domain.
 */
export const kycContacts = {
  support: company.email,
  defenseTeam: `defense@${mailDomain}`,
} as const;

export const kycCopy = {
  start: {
    title: 'Identity Verification',
    intro:
      'Before your organization gets full access, we verify the identity of the person acting for it. It takes three short steps and usually a few minutes.',
    stepsLabel: 'Verification steps',
    steps: [
      {
        name: 'Consent',
        body: 'Agree to how your verification data is processed. We record exactly what you agreed to.',
      },
      {
        name: 'Identity verification',
        body: 'Confirm your identity with our verification partner Persona, using a government-issued ID and a selfie.',
      },
      {
        name: 'Full access',
        body: "Once your identity is confirmed, your organization's dashboard opens.",
      },
    ],
    state: {
      done: 'Completed',
      current: 'Current step',
      upcoming: 'Upcoming',
    },
    provideConsent: 'Provide Verification Consent',
    continue: 'Continue to Verification',
    skip: 'Skip for now',
    skipNote: 'You can come back to this at any time from your account page.',
  },
  consent: {
    intro:
      'Please read each statement and tick the box to agree. All three are required before the verification can start.',
    versionLabel: 'Version',
    privacyPolicyLink: 'Read the privacy policy (opens in a new tab)',
    incomplete: 'Please provide all required consents to proceed',
    submit: 'Agree and Continue',
    saving: 'Saving...',
    cancel: 'Cancel',
    recorded: 'Consent recorded successfully! You can now verify your identity.',
    storeFailed: 'Failed to store consent. Please try again.',
    failed: 'An error occurred. Please try again.',
    emailNotVerified: 'Please verify your email address before giving consent.',
  },
  status: {
    title: 'Verification Status',
    returnHome: 'Return to Home',
    goNow: 'Go to your dashboard now',
    commercial: {
      pending: {
        heading: 'Verification In Progress',
        body: 'Thank you. Your identity verification has been submitted and is being reviewed. Most reviews finish within a few minutes; some take up to one business day.',
        next: 'This page updates by itself when a decision is made, and we also email you. You can safely leave it.',
      },
      approved: {
        heading: 'Verification Approved',
        body: 'Your identity is verified and your organization now has full access.',
        redirect: 'Taking you to your dashboard...',
      },
      rejected: {
        heading: 'Verification Unsuccessful',
        body: 'We could not verify your identity with the information provided. If you think this is a mistake, or you would like to try again, our support team will help: write to us through the contact page.',
        contact: 'Contact Support',
      },
    },
    defense: {
      pending: {
        heading: 'Security Clearance In Progress',
        body: 'Thank you. Your verification has been submitted. Defense and government organizations go through an additional security review, which takes 2-5 business days.',
        next: 'We email you as soon as the review is complete, and this page updates by itself. You can safely leave it.',
      },
      approved: {
        heading: 'Security Clearance Approved',
        body: 'Your identity is verified and your organization has been cleared for the Defense and Government dashboard.',
        redirect: 'Taking you to the Defense and Government dashboard...',
      },
      rejected: {
        heading: 'Security Clearance Not Granted',
        body: 'We could not complete the security clearance with the information provided. Our defense team can explain the decision and the next steps: write to us through the contact page.',
        contact: 'Contact the Defense Team',
      },
    },
    contactAddress: 'Email:',
    reason: 'The reason:',
    attempts: (used: number, max: number) => `Attempt ${used} of ${max}.`,
    verifyAgain: 'Verify again',
    startingAgain: 'Starting...',
    newAttemptAllowed:
      'A reviewer has allowed you a new attempt. Start it when you are ready; it takes about five minutes.',
    noAttemptsLeft:
      'You have used every verification attempt. Contact us if you think the decision is wrong.',
    startAgainFailed: 'Unable to start verification. Please try again.',
    /** An undecided verification stopped by a withdrawal of consent (ADR 0075). */
    withdrawn: {
      heading: 'Verification Stopped',
      body: 'You withdrew your consent to identity verification, so we stopped your verification before it was decided. It will not be decided, and no new verification can start until you give your consent again.',
      again: 'Give Consent Again',
      account: 'Your Account',
      /** A reviewer allowed a new attempt, but the consent is withdrawn: it comes first. */
      consentFirst:
        'A reviewer has allowed you a new attempt. You withdrew your consent to identity verification, so give it again first; then start the new attempt here.',
    },
  },
} as const;
