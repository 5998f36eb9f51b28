import { type ConsentPurpose, consentDocuments } from '#contracts/consent-documents.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import { contractRetentionYears, deletionDeadlineDays, kycRetentionYears } from '#contracts/retention.ts';
import { organizationTypeNames } from './organization.ts';

// Copy of the account screen (/user-account), and the words for an account's facts that the
// dashboards show too (organization type, verification status). Wording choices:
// docs/decisions/0027-dashboards-and-account.md.

export const notSet = 'Not set';

export function organizationTypeName(type: OrganizationType | null): string {
  return type === null ? notSet : organizationTypeNames[type];
}

/**
 * The identity verification's status in words. `not_started` covers both "consent not given yet"
 * and "consent given, verification not sent": in both the user still has to submit it.
 */
export const verificationStatusNames: Record<KycStatus, string> = {
  not_started: 'Not Started',
  pending: 'Under Review',
  approved: 'Verified',
  rejected: 'Not Approved',
};

/** A consent ledger purpose in words: the title of the document the person agreed to. */
export function consentPurposeName(purpose: ConsentPurpose): string {
  return consentDocuments[purpose].title;
}

/**
 * What a withdrawal keeps, said the same way before (the dialog) and after (the standing notice):
 * the numbers are the retention table's (lambdas/contracts/retention.ts; ADR 0077).
 */
// Non-breaking spaces keep a citation's parts on one line (no "§" or "Art." alone at a line's end).
const keptEvidence = `we keep its record and evidence for ${kycRetentionYears} years after your account is closed, because anti-money-laundering law requires it (§\u00a08(4) GwG, EU Directive 2015/849, Art.\u00a040). We use it for nothing else.`;
const keptConsentRecords = `for ${contractRetentionYears} years after your account is closed, as proof of what you agreed to and when (GDPR Art.\u00a07(1))`;

export const accountCopy = {
  title: 'Your Account',
  logOut: 'Log Out',
  next: {
    dashboard: 'Go to Dashboard',
    admin: 'Go to Verification Review',
    onboarding: 'Continue Onboarding',
  },
  profile: {
    heading: 'Profile',
    name: 'Name',
    email: 'Email',
    organization: 'Organization',
    organizationType: 'Organization type',
    verification: 'Identity verification',
  },
  consents: {
    heading: 'Consent History',
    intro:
      'Every consent you gave or withdrew, as our consent ledger recorded it, newest first. The text version names the exact wording you were shown.',
    loading: 'Loading your consent history...',
    empty: 'No consents are recorded for your account yet.',
    failed: 'Your consent history could not be loaded.',
    retry: 'Try Again',
    retrying: 'Loading...',
    granted: 'Granted',
    withdrawn: 'Withdrawn',
    textVersion: 'Text version',
    method: {
      consent_dialog: 'In the consent dialog',
      registration_wizard: 'At registration',
      account_page: 'On your account page',
    },
    withdraw: {
      open: 'Withdraw consent',
      title: 'Withdraw your consent to identity verification?',
      consequences: [
        'We stop processing your identity verification. A verification that is not decided yet is cancelled at our verification provider, and you cannot start one again until you give your consent again.',
        `If your verification has already been decided, ${keptEvidence}`,
        `Your consent history keeps both records, the consent you gave and this withdrawal, ${keptConsentRecords}.`,
      ],
      confirm: 'Withdraw consent',
      cancel: 'Keep my consent',
      withdrawing: 'Withdrawing...',
      done: 'Your consent is withdrawn.',
      notActive: 'There is no consent to withdraw: it was never given or is already withdrawn.',
      failed: 'Your consent could not be withdrawn. Please try again.',
    },
    /** After a withdrawal, while no new consent is given (GET /api/me's `consentWithdrawn`). */
    withdrawnNotice: {
      heading: 'Your consent to identity verification is withdrawn',
      stopped:
        'We no longer process your data for identity verification, and no verification can start until you give your consent again.',
      decided: `Your verification had already been decided, so ${keptEvidence}`,
      undecided:
        'Your verification had not been decided yet, so we stopped it at our verification provider: it will not be decided.',
      consentRecords: `We keep the records of your consent and of its withdrawal ${keptConsentRecords}. Nothing else is processed.`,
      again: 'Give consent again',
    },
  },
  dataExport: {
    heading: 'Your Data',
    intro:
      'Download a copy of everything we hold about you (GDPR Art. 15 and 20): your profile, organization and registration, every consent you gave or withdrew with the version of the text you saw, the history of your identity verification, and the forms you sent with your address. The file is JSON, readable by people and by other services. You can download it up to 5 times a day.',
    download: 'Download my data',
    preparing: 'Preparing...',
    savedTitle: 'Download ready',
    saved: 'Your data was saved as a JSON file.',
    failedTitle: 'Download Failed',
    failed: 'Your data could not be downloaded. Please try again.',
    limited: 'You have downloaded your data 5 times today. Please try again tomorrow.',
  },
  deletion: {
    heading: 'Delete Your Data',
    intro: `You can ask us to delete the personal data we hold about you (GDPR Art. 17). We complete every request within ${deletionDeadlineDays} days and confirm it by email. Records the law requires us to keep, such as your consent records and the outcome of your identity verification, are kept for their legal period only and blocked for any other use.`,
    policyLink: 'What we delete and what we keep',
    emailLabel: 'Email address',
    emailNote: 'A request from this page is always for the address of this account.',
    detailsLabel: 'Details',
    optional: '(optional)',
    detailsHint: 'Anything that helps us, such as other services of ours you used with this address.',
    review: 'Request Deletion',
    confirmHeading: 'Confirm your deletion request',
    confirmBody: (email: string) =>
      `We will delete the personal data we hold about ${email}, except what the law requires us to keep. Once the request is carried out, you can no longer sign in with this account.`,
    send: 'Send Deletion Request',
    sending: 'Sending...',
    cancel: 'Cancel',
    failedTitle: 'Request Failed',
    failed: 'Your deletion request could not be sent. Please try again.',
    receivedTitle: 'Request received',
    requestId: 'Request ID',
    dueBy: 'Due by',
    receivedBody: (email: string) =>
      `We have sent a confirmation to ${email}. Please keep the request ID: we will complete your request by the date above.`,
    pending: {
      heading: 'Deletion requested',
      requestedOn: 'Requested on',
      dueBy: 'due by',
      cancel: 'Cancel Deletion Request',
      cancelling: 'Cancelling...',
      inProgress: 'We are carrying out your request; it can no longer be cancelled.',
      cancelledTitle: 'Request cancelled',
      cancelled: 'Your deletion request is cancelled. Nothing was deleted.',
      failedTitle: 'Cancellation Failed',
      failed: 'Your deletion request could not be cancelled. Please try again.',
      tooLate: 'We have started carrying out your request: it can no longer be cancelled.',
    },
  },
} as const;
