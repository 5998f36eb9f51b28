import { describe, expect, it } from 'vitest';
import { requireOrganization } from '#lambdas/domain/caller.ts';
import { OrganizationMismatchError, OrganizationRoleRequiredError } from '#lambdas/domain/errors.ts';

// The check of every organization-scoped route (ADR 0083).

describe('requireOrganization', () => {
  const org = 'org_0123456789abcdef';

  it("answers the caller's allowed roles in the token's organization, strongest first", () => {
    expect(
      requireOrganization({ organization: { id: org, roles: ['org_member', 'org_admin'] } }, org),
    ).toEqual(['org_admin', 'org_member']);
    expect(requireOrganization({ organization: { id: org, roles: ['org_member'] } }, org)).toEqual([
      'org_member',
    ]);
  });

  it('refuses another organization, and a token without one, with OrganizationMismatchError', () => {
    expect(() =>
      requireOrganization({ organization: { id: 'org_other', roles: ['org_admin'] } }, org),
    ).toThrow(OrganizationMismatchError);
    expect(() => requireOrganization({}, org)).toThrow(OrganizationMismatchError);
    expect(() => requireOrganization({ organization: { id: org, roles: ['org_admin'] } }, '')).toThrow(
      OrganizationMismatchError,
    );
  });

  it('refuses a member without a role the route allows', () => {
    expect(() => requireOrganization({ organization: { id: org, roles: [] } }, org)).toThrow(
      OrganizationRoleRequiredError,
    );
    expect(() =>
      requireOrganization({ organization: { id: org, roles: ['org_member'] } }, org, ['org_admin']),
    ).toThrow(OrganizationRoleRequiredError);
  });
});
