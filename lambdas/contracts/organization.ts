import * as z from 'zod/mini';

// The organization types a registration names (docs/design.md section 3). Their own module, so what
// reads only the type (GET /api/me, the events, the signed-in web app) does not bring the
// registration form's rules along.

export const organizationTypes = ['commercial', 'defense', 'academic', 'government'] as const;

export const organizationMessages = {
  organizationType: 'Please choose an organization type',
} as const;

export const organizationType = z.enum(organizationTypes, organizationMessages.organizationType);
export type OrganizationType = z.infer<typeof organizationType>;

/**
 * The roles a person holds in their organization's workspace (Auth0 Organizations: tenant roles
 * assigned per organization membership; issue 27). The responsible person who registers the
 * organization is its first `org_admin`; invited colleagues are `org_member`s unless an
 * `org_admin` makes them admins too.
 */
export const organizationRoles = ['org_admin', 'org_member'] as const;
export type OrganizationRole = (typeof organizationRoles)[number];

/** The roles' descriptions, as provisioning creates them on Auth0 and the local provider seeds them. */
export const organizationRoleDescriptions: Record<OrganizationRole, string> = {
  org_admin: "Administers the organization's workspace on the platform: invites, roles, removals",
  org_member: "A member of the organization's workspace on the platform",
};
