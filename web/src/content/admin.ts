import type { VerificationStatusFilter } from '#contracts/admin-verifications.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import { organizationTypeNames } from './organization.ts';

// Copy of the admins' verification review queue (/admin/verification).

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const adminCopy = {
  title: 'Verification Review',
  intro:
    'Identity verifications that need a person to decide, and the decisions already made. A decision tells the user the reason you choose, by email and on their status page; your note stays in the verification history.',
  filter: {
    label: 'Filter by status',
    options: {
      pending: 'Pending',
      approved: 'Approved',
      rejected: 'Rejected',
      all: 'All',
    } satisfies Record<VerificationStatusFilter, string>,
  },
  listHeading: {
    pending: 'Pending review',
    approved: 'Approved',
    rejected: 'Rejected',
    all: 'All verifications',
  } satisfies Record<VerificationStatusFilter, string>,
  count: (count: number) => plural(count, 'verification', 'verifications'),
  /** One page of more (ADR 0082): the count is the page's. */
  countOnPage: (count: number) => `${plural(count, 'verification', 'verifications')} on this page`,
  truncated:
    'The search stopped after the first 5,000 verifications of this filter: the next page searches on.',
  refresh: 'Refresh',
  refreshing: 'Refreshing...',
  updated: 'Updated',
  loading: 'Loading verifications...',
  empty: {
    pending: 'No verifications are waiting for review.',
    approved: 'No approved verifications.',
    rejected: 'No rejected verifications.',
    all: 'No verifications yet.',
  } satisfies Record<VerificationStatusFilter, string>,
  loadFailed: {
    title: 'The verifications could not be loaded',
    body: 'Please try again in a moment.',
    retry: 'Try again',
  },
  refreshFailed: 'The list could not be refreshed; it shows the verifications loaded before.',
  status: {
    not_started: 'Not started',
    pending: 'Pending review',
    approved: 'Approved',
    rejected: 'Rejected',
  } satisfies Record<KycStatus, string>,
  segment: { commercial: 'Commercial', defense: 'Defense and Government' },
  organizationType: organizationTypeNames,
  facts: {
    segment: 'Segment',
    organizationType: 'Organization type',
    contact: 'Contact',
    website: 'Website',
    inquiry: 'Inquiry ID',
    status: 'Status',
    updated: 'Last update',
    userId: 'User ID',
    reason: 'Reason given',
    attempt: 'Attempt',
  },
  attempt: (used: number, max: number) => `${used} of ${max}`,
  notSubmitted:
    'Not submitted: the user has not finished an identity verification, so there is nothing to decide yet.',
  ownVerification: 'This is your own verification: another administrator decides on it.',
  notOnFile: 'Not on file',
  noRegistration: 'No registration on file',
  noInquiry: 'No inquiry yet',
  history: {
    summary: (count: number) => `History (${plural(count, 'change', 'changes')})`,
    empty: 'No status changes recorded yet.',
    to: 'to',
    by: 'By',
    persona: 'Persona',
    you: 'You',
    user: 'The user (new attempt)',
    admin: (adminId: string) => `Administrator (${adminId})`,
    reason: 'Note',
    reasonCode: 'Reason given',
    event: 'Event',
    newAttemptAllowed: 'New attempt allowed',
    /** Four-eyes (ADR 0080): a reviewer's proposal, not yet the status. */
    proposed: (status: string) => `Proposed: ${status} (awaiting a second administrator)`,
    /** Persona decided after a reviewer: recorded, and the reviewer's decision stays. */
    decisionHeld: (personaStatus: string, reviewerStatus: string) =>
      `Persona decided ${personaStatus}; the reviewer's decision (${reviewerStatus}) stands`,
  },
  checks: {
    /** ADR 0082: Persona's verifications and their failed checks, loaded when opened. */
    summary: 'Why Persona flagged it',
    /** ADR 0082's amendment: the failed checks' names on the card, from the last webhook event. */
    flagged: 'Flagged by Persona',
    loading: "Loading Persona's checks…",
    failed: "Persona's checks could not be loaded.",
    retry: 'Try again',
    inquiryStatus: (status: string) => `Persona's inquiry status: ${status}`,
    redacted: "Persona erased this inquiry's personal data: its checks can no longer be shown.",
    noVerifications: 'Persona has no verification for this inquiry yet.',
    noneFailed: 'No verification check failed.',
    verification: (type: string, status: string) => `${type} verification: ${status}`,
  },
  persona: {
    open: 'Open in Persona',
    /** Read after the visible text: which inquiry, and that it opens in a new tab. */
    details: (inquiryId: string) => ` (inquiry ${inquiryId}, opens in a new tab)`,
  },
  search: {
    label: 'Search by organization or email',
    submit: 'Search',
    clear: 'Clear search',
    hint: 'At least 2 characters.',
  },
  sort: {
    label: 'Order',
    newest: 'Newest change first',
    oldest: 'Oldest change first',
  },
  pages: {
    label: 'Pages',
    first: 'First page',
    next: 'Next page',
  },
  details: {
    show: 'Show details',
    hide: 'Hide details',
    decided: (by: string, when: string) => `Decided by ${by}, ${when}`,
  },
  noMatch: (q: string) => `No verification of this filter matches "${q}".`,
  matching: (heading: string, q: string) => `${heading} matching "${q}"`,
  trail: {
    summary: 'Audit trail',
    loading: 'Loading the audit trail…',
    failed: 'The audit trail could not be loaded.',
    retry: 'Try again',
    empty: 'No administrator has acted on this verification yet.',
    truncated: (count: number) => `The newest ${count} entries; npm run audit:admin exports them all.`,
    by: 'By',
    you: 'You',
    admin: (id: string) => `Administrator (${id})`,
    operator: (id: string) => `Operator (${id})`,
    member: (id: string) => `Organization member (${id})`,
    reasonCode: 'Reason given',
    reason: 'Why',
    entry: (sequence: number) => `Entry #${sequence}`,
    action: {
      verification_proposed: 'Decision proposed (awaiting a second administrator)',
      verification_decided: 'Decided',
      verification_reversed: 'Decision reversed',
      new_attempt_allowed: 'New attempt allowed',
      erasure_run: 'Data erased',
      role_changed: 'Role changed',
      provisioning_applied: 'Identity configuration applied',
      member_invited: 'Colleague invited',
      invitation_resent: 'Invitation resent',
      invitation_revoked: 'Invitation revoked',
      member_joined: 'Joined the organization',
      member_role_changed: 'Organization role changed',
      member_removed: 'Removed from the organization',
    },
  },
  decision: {
    label: (subject: string) => `Decision on ${subject}`,
    reasonCode: 'Reason shown to the user',
    reasonCodePlaceholder: 'Choose a reason',
    reasonCodeHint: 'The user reads this reason on their status page and in the decision email.',
    reasonCodeOption: (decision: 'approved' | 'rejected', label: string) =>
      `${decision === 'approved' ? 'Approve' : 'Reject'}: ${label}`,
    reason: 'Internal note (optional)',
    reasonHint: 'Up to 1000 characters. Kept in the verification history; never shown to the user.',
    approve: 'Approve',
    reject: 'Reject',
    approving: 'Approving...',
    rejecting: 'Rejecting...',
  },
  newAttempt: {
    label: (subject: string) => `New attempt for ${subject}`,
    reason: 'Why a new attempt',
    reasonHint: 'Required: 3 to 1000 characters. Kept in the verification history; never shown to the user.',
    allow: 'Allow a new attempt',
    allowing: 'Allowing...',
    allowed: 'A new attempt is allowed: the user can start it from their status page.',
    exhausted: (max: number) => `All ${max} attempts are used: no new attempt can be allowed.`,
    done: 'New Attempt Allowed',
    doneBody: (subject: string) => `${subject} can now verify again from their status page.`,
  },
  proposal: {
    /** Four-eyes (ADR 0080): a decision waiting for a second administrator. */
    label: 'Awaiting a second administrator',
    text: (decision: 'approved' | 'rejected', by: string) =>
      `${by === 'You' ? 'You' : by} proposed to ${decision === 'approved' ? 'approve' : 'reject'} this verification.`,
    own: 'Another administrator must confirm it.',
    others: 'Choose the same decision to confirm it.',
    done: 'Decision Proposed',
    doneBody: (subject: string, decision: 'approved' | 'rejected') =>
      `Your proposal to ${decision === 'approved' ? 'approve' : 'reject'} ${subject} is recorded. The status changes once another administrator confirms it.`,
    sameReviewer: 'Second Administrator Needed',
    sameReviewerBody: 'You proposed this decision. Another administrator must confirm it.',
  },
  decided: {
    approved: 'Verification Approved',
    rejected: 'Verification Rejected',
    body: (subject: string, status: 'approved' | 'rejected') =>
      `${subject} is now ${status}. The user is notified by email, with the reason.`,
  },
  conflict: {
    title: 'Verification Changed',
    body: 'This verification changed while you were deciding. The list has been reloaded: please review it again.',
  },
  gone: {
    title: 'Verification Not Found',
    body: 'This user no longer has a verification. The list has been reloaded.',
  },
  failed: {
    title: 'Decision Not Saved',
    body: 'Your decision could not be saved. Please try again.',
  },
  rateLimited: (seconds: number) =>
    `Too many decisions in a short time. Please try again in ${plural(seconds, 'second', 'seconds')}.`,
} as const;
