import * as z from 'zod/mini';

// The organization types a registration names (docs/design.md section 3). Their own module, so what
// reads only the type (GET /api/me, the events, the signed-in web app) does not bring the
// registration form's rules along.

export const organizationTypes = ['commercial', 'defense', 'academic', 'government'] as const;
export const organizationType = z.enum(organizationTypes, 'Please choose an organization type');
export type OrganizationType = z.infer<typeof organizationType>;
