import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationRoleDescriptions, organizationRoles } from '#contracts/organization.ts';
import { createManagementApi } from '#lambdas/adapters/auth0-management-api.ts';
import { Auth0UserDirectory } from '#lambdas/adapters/auth0-user-directory.ts';
import { OrganizationNameTakenError } from '#lambdas/domain/ports.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { TEST_CLIENTS, TEST_M2M_CLIENTS, testIdpOptions } from '#tests/helpers/idp.ts';

// The organization calls registration makes (ADR 0083), against the local identity provider with
// the `auth0Registration` application's scopes only (lambdas/grants.ts): a missing scope is a 403.

describe('Auth0UserDirectory: the organization registration creates', () => {
  let idp: RunningIdp;
  let port: number;
  let calls: string[];
  let directory: Auth0UserDirectory;

  beforeAll(async () => {
    port = await freePort();
    idp = await startIdp(
      testIdpOptions({
        port,
        seedRoles: organizationRoles.map((name) => ({
          name,
          description: organizationRoleDescriptions[name],
        })),
      }),
    );
    calls = [];
    directory = new Auth0UserDirectory(
      createManagementApi({
        domain: `localhost:${port}`,
        ...TEST_M2M_CLIENTS.auth0Registration,
        baseUrl: idp.url,
        onCall: (operation) => calls.push(operation),
      }),
    );
  });

  afterAll(async () => {
    await idp?.close();
  });

  it('creates it, makes the user its org_admin in two calls, and looks the role up once per directory', async () => {
    const user = await directory.create({
      email: 'org-admin@helix-labs.example',
      name: 'Ada',
      password: 'Initial-Secret-Password-1!',
      appMetadata: { role: 'user' },
    });
    calls.length = 0;
    const organization = await directory.createOrganization({
      name: 'helix-labs-0a1b2c3d',
      displayName: 'Helix Labs',
      metadata: { organization_type: 'defense', registered_by: user.userId },
    });
    expect(organization).toEqual({
      id: expect.stringMatching(/^org_/),
      name: 'helix-labs-0a1b2c3d',
      metadata: { organization_type: 'defense', registered_by: user.userId },
    });
    await directory.addMember(organization.id, user.userId, ['org_admin']);
    // Again (a retry): nothing changes, and the role's id is not looked up again.
    await directory.addMember(organization.id, user.userId, ['org_admin']);
    expect(calls).toEqual([
      'organizations.create',
      'roles.list',
      'organizations.addMembers',
      'organizations.addMemberRoles',
      'organizations.addMembers',
      'organizations.addMemberRoles',
    ]);
    const response = await fetch(
      `${idp.url}/api/v2/organizations/${organization.id}/members?fields=roles&include_fields=true`,
      { headers: { authorization: `Bearer ${await operatorToken()}` } },
    );
    const members = (await response.json()) as { user_id: string; roles: { name: string }[] }[];
    expect(members.map((m) => ({ user_id: m.user_id, roles: m.roles.map((r) => r.name) }))).toEqual([
      { user_id: user.userId, roles: ['org_admin'] },
    ]);
  });

  it('answers a taken name with OrganizationNameTakenError, and finds an organization by its name', async () => {
    const input = { name: 'taken-name-0a1b2c3d', displayName: 'Taken', metadata: {} };
    const created = await directory.createOrganization(input);
    await expect(directory.createOrganization(input)).rejects.toBeInstanceOf(OrganizationNameTakenError);
    expect((await directory.findOrganizationByName('taken-name-0a1b2c3d'))?.id).toBe(created.id);
    expect(await directory.findOrganizationByName('no-such-name')).toBeUndefined();
  });

  async function operatorToken(): Promise<string> {
    const response = await fetch(`${idp.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: TEST_CLIENTS.m2m.clientId,
        client_secret: TEST_CLIENTS.m2m.clientSecret,
        audience: `${idp.url}/api/v2/`,
      }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  }
});
