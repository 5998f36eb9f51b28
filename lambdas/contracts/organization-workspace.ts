import * as z from 'zod/mini';
import { organizationRoles, organizationType } from './organization.ts';
import { route } from './route.ts';

// GET /api/organizations/{organizationId} (ADR 0083): the organization the caller signed in through,
// as the team page will show it. Organization-scoped: the path's id must be the token's `org_id`.

export const organizationResponse = z.strictObject({
  /** Auth0's organization id (the tokens' `org_id`). */
  organizationId: z.string(),
  /** The organization's name as registered. */
  name: z.string(),
  organizationType,
  /** The caller's strongest role in it: `org_admin` over `org_member`. */
  role: z.enum(organizationRoles),
});
export type OrganizationResponse = z.infer<typeof organizationResponse>;

export const getOrganizationRoute = route('GetOrganization', {
  auth: 'user',
  response: organizationResponse,
  successStatus: 200,
  problems: ['organizationMismatch', 'organizationRoleRequired', 'organizationNotFound'],
});
