import type { OrganizationType } from '#contracts/organization.ts';
import type * as en from '#web/content/organization.ts';

// The organization types in words, as the registration wizard offers them and as the dashboards,
// the account screen and the admins' queue show a stored one: one wording everywhere.

export const organizationTypeNames: Record<OrganizationType, string> = {
  commercial: 'Wirtschaft/Unternehmen',
  academic: 'Wissenschaft/Forschung',
  government: 'Behörde/Regierung',
  defense: 'Verteidigung/Militär',
};

/** In the order the registration's select offers them. */
export const organizationTypeOptions: typeof en.organizationTypeOptions = (
  ['commercial', 'academic', 'government', 'defense'] as const
).map((value) => ({ value, label: organizationTypeNames[value] }));
