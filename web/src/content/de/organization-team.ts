import type { OrganizationRole } from '#contracts/organization.ts';
import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/organization-team.ts';

// Copy of the team page (/organization, ADR 0084): an organization's admin sees its members and
// pending invitations, invites colleagues, changes roles and removes members. The verification
// status of a member reads as on the account screen (`verificationStatusNames` in ./account.ts).

export const roleNames: Record<OrganizationRole, string> = {
  org_admin: 'Administrator',
  org_member: 'Mitglied',
};

/** In the order the selects offer them: a member first (the invitation's default). */
export const roleOptions: { value: OrganizationRole; label: string }[] = (
  ['org_member', 'org_admin'] as const
).map((value) => ({ value, label: roleNames[value] }));

export const teamCopy = {
  title: 'Team',
  // `organization` is the organization's name or `yourOrganization` (dative after "von").
  intro: (organization: string) =>
    `Die Personen von ${organization} auf der Plattform und die Kolleginnen und Kollegen, die Sie eingeladen haben. Administratoren laden ein, ändern Rollen und entfernen Mitglieder; Mitglieder nutzen den Arbeitsbereich.`,
  yourOrganization: 'Ihrer Organisation',
  loading: 'Ihr Team wird geladen …',
  loadFailed: 'Ihr Team konnte nicht geladen werden.',
  retry: 'Erneut versuchen',
  members: {
    heading: 'Mitglieder',
    caption: 'Mitglieder Ihrer Organisation',
    email: 'E-Mail',
    role: 'Rolle',
    emailVerified: 'E-Mail bestätigt',
    kycStatus: 'Identitätsprüfung',
    joined: 'Beigetreten',
    actions: 'Aktionen',
    you: 'Sie',
    yes: 'Ja',
    no: 'Nein',
    roleLabel: (email: string) => `Rolle von ${email}`,
    saveRole: 'Rolle speichern',
    saveRoleLabel: (email: string) => `Rolle von ${email} speichern`,
    savingRole: 'Wird gespeichert …',
    roleSaved: (email: string) => `Die Rolle von ${email} wurde geändert.`,
    remove: 'Entfernen',
    removeLabel: (email: string) => `${email} entfernen`,
  },
  invitations: {
    heading: 'Offene Einladungen',
    caption: 'Noch nicht angenommene Einladungen',
    none: 'Keine Einladungen warten auf Annahme.',
    email: 'E-Mail',
    role: 'Rolle',
    invited: 'Eingeladen',
    expires: 'Läuft ab',
    expired: 'Abgelaufen',
    actions: 'Aktionen',
    resend: 'Erneut senden',
    resendLabel: (email: string) => `Einladung an ${email} erneut senden`,
    resending: 'Wird gesendet …',
    resent: (email: string) => `Eine neue Einladung wurde an ${email} gesendet; sie ist 7 Tage gültig.`,
    revoke: 'Widerrufen',
    revokeLabel: (email: string) => `Einladung an ${email} widerrufen`,
    revoked: (email: string) => `Die Einladung an ${email} wurde widerrufen.`,
  },
  invite: {
    heading: 'Kolleginnen und Kollegen einladen',
    intro:
      'Wir senden der Person per E-Mail einen Link, mit dem sie Ihrer Organisation beitritt. Der Link ist 7 Tage gültig; die Person meldet sich mit dieser Adresse an oder erstellt damit ein Konto.',
    email: 'Geschäftliche E-Mail-Adresse',
    emailHint: 'Die dienstliche Adresse bei Ihrer Organisation, kein privates Postfach.',
    role: 'Rolle',
    rolePlaceholder: 'Rolle auswählen',
    submit: 'Einladung senden',
    submitting: 'Wird gesendet …',
    sent: (email: string) => `Einladung an ${email} gesendet.`,
  },
  confirm: {
    cancel: 'Abbrechen',
    working: 'Wird ausgeführt …',
    revokeTitle: 'Diese Einladung widerrufen?',
    revokeBody: (email: string) => [
      `Der Link, den wir an ${email} gesendet haben, funktioniert dann nicht mehr.`,
      'Sie können die Person jederzeit erneut einladen.',
    ],
    revokeConfirm: 'Einladung widerrufen',
    removeTitle: 'Dieses Mitglied entfernen?',
    removeBody: (email: string) => [
      `${email} gehört dann auf der Plattform nicht mehr zu Ihrer Organisation. Die Sitzungen der Person enden, und sie kann sich nicht mehr über Ihre Organisation anmelden.`,
      'Die Einwilligungsnachweise der Person bleiben erhalten, wie es das Gesetz verlangt; ihr eigenes Konto wird nicht gelöscht.',
    ],
    removeConfirm: 'Mitglied entfernen',
    removed: (email: string) => `${email} wurde aus Ihrer Organisation entfernt.`,
  },
  /** A refusal without its own detail (network, 5xx). */
  failed: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
} as const satisfies Localized<typeof en.teamCopy>;
