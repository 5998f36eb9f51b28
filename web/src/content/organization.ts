import type { OrganizationType } from '#contracts/organization.ts';

// The organization types in words, as the registration wizard offers them and as the dashboards,
// the account screen and the admins' queue show a stored one: one wording everywhere.

export const organizationTypeNames: Record<OrganizationType, string> = {
  commercial: 'Commercial/Enterprise',
  academic: 'Academic/Research',
  government: 'Government',
  defense: 'Defense/Military',
};

/** In the order the registration's select offers them. */
export const organizationTypeOptions: { value: OrganizationType; label: string }[] = (
  ['commercial', 'academic', 'government', 'defense'] as const
).map((value) => ({ value, label: organizationTypeNames[value] }));
