import type { OrganizationRole } from '#contracts/organization.ts';

// Copy of the team page (/organization, ADR 0084): an organization's admin sees its members and
// pending invitations, invites colleagues, changes roles and removes members. The verification
// status of a member reads as on the account screen (`verificationStatusNames` in ./account.ts).

export const roleNames: Record<OrganizationRole, string> = {
  org_admin: 'Admin',
  org_member: 'Member',
};

/** In the order the selects offer them: a member first (the invitation's default). */
export const roleOptions: { value: OrganizationRole; label: string }[] = (
  ['org_member', 'org_admin'] as const
).map((value) => ({ value, label: roleNames[value] }));

export const teamCopy = {
  title: 'Team',
  intro: (organization: string) =>
    `The people of ${organization} on the platform, and the colleagues you invited. Admins invite, change roles and remove members; members use the workspace.`,
  yourOrganization: 'your organization',
  loading: 'Loading your team...',
  loadFailed: 'Your team could not be loaded.',
  retry: 'Try again',
  members: {
    heading: 'Members',
    caption: 'Members of your organization',
    email: 'Email',
    role: 'Role',
    emailVerified: 'Email verified',
    kycStatus: 'Identity verification',
    joined: 'Joined',
    actions: 'Actions',
    you: 'You',
    yes: 'Yes',
    no: 'No',
    roleLabel: (email: string) => `Role of ${email}`,
    saveRole: 'Save role',
    saveRoleLabel: (email: string) => `Save role of ${email}`,
    savingRole: 'Saving...',
    roleSaved: (email: string) => `The role of ${email} was changed.`,
    remove: 'Remove',
    removeLabel: (email: string) => `Remove ${email}`,
  },
  invitations: {
    heading: 'Pending invitations',
    caption: 'Invitations not accepted yet',
    none: 'No invitations are waiting to be accepted.',
    email: 'Email',
    role: 'Role',
    invited: 'Invited',
    expires: 'Expires',
    expired: 'Expired',
    actions: 'Actions',
    resend: 'Resend',
    resendLabel: (email: string) => `Resend the invitation to ${email}`,
    resending: 'Sending...',
    resent: (email: string) => `A new invitation was sent to ${email}. It is valid for 7 days.`,
    revoke: 'Revoke',
    revokeLabel: (email: string) => `Revoke the invitation to ${email}`,
    revoked: (email: string) => `The invitation to ${email} was revoked.`,
  },
  invite: {
    heading: 'Invite a colleague',
    intro:
      'We email them a link to join your organization. The link works for 7 days; they sign in or create an account with this address.',
    email: 'Business email',
    emailHint: 'Their work address at your organization, not a personal mailbox.',
    role: 'Role',
    rolePlaceholder: 'Choose a role',
    submit: 'Send invitation',
    submitting: 'Sending...',
    sent: (email: string) => `Invitation sent to ${email}.`,
  },
  confirm: {
    cancel: 'Cancel',
    working: 'Working...',
    revokeTitle: 'Revoke this invitation?',
    revokeBody: (email: string) => [
      `The link we sent to ${email} will stop working.`,
      'You can invite them again at any time.',
    ],
    revokeConfirm: 'Revoke invitation',
    removeTitle: 'Remove this member?',
    removeBody: (email: string) => [
      `${email} will no longer be part of your organization on the platform. Their sessions end, and they can no longer sign in through your organization.`,
      'Their consent records are kept, as the law requires; their own account is not deleted.',
    ],
    removeConfirm: 'Remove member',
    removed: (email: string) => `${email} was removed from your organization.`,
  },
  /** A refusal without its own detail (network, 5xx). */
  failed: 'Something went wrong. Please try again.',
} as const;
