import type { Server } from 'node:http';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import sesServer from 'aws-ses-v2-local';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { organizationRoleDescriptions, organizationRoles } from '#contracts/organization.ts';
import {
  createManagementApi,
  ManagementApiError,
  TenantQuota,
} from '#lambdas/adapters/auth0-management-api.ts';
import {
  Auth0OrganizationTeamDirectory,
  organizationTeamDirectory,
  teamRetryPolicy,
} from '#lambdas/adapters/auth0-organization-team.ts';
import { DirectoryUnavailableError, type RetryPolicy } from '#lambdas/adapters/auth0-user-directory.ts';
import { clearSecretCache } from '#lambdas/adapters/secrets.ts';
import { MemberNotFoundError } from '#lambdas/domain/errors.ts';
import { secretEnvVars } from '#lambdas/grants.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { type ManagementApiStats, managementApiStatsPath } from '#local/idp/rate-limit.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { managementToken, TEST_CLIENTS, TEST_M2M_CLIENTS, testIdpOptions } from '#tests/helpers/idp.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';

// The team page's directory (ADR 0084): the Management API client's four new calls against a fake
// tenant (exact requests, 204s, errors), the adapter's retries and 404s under injected faults, and
// the adapter against the local identity provider with the `auth0OrganizationTeam` application's
// scopes only, checking what the provider holds afterwards.

interface Seen {
  method: string;
  path: string;
  body: unknown;
}

type Answer = Response | 'hang';

/** A tenant in a `fetch`: tokens always, the API as `answer` says; every API request recorded. */
function fakeTenant(answer: (request: Seen, index: number) => Answer) {
  const seen: Seen[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname === '/oauth/token') return Response.json({ access_token: 't', expires_in: 86_400 });
    const request: Seen = {
      method: init?.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    seen.push(request);
    const reply = answer(request, seen.length - 1);
    if (reply !== 'hang') return reply;
    // Never answers: the caller's signal ends it, as fetch does.
    return new Promise<Response>((_, reject) => {
      const signal = init?.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }) as typeof fetch;
  const api = createManagementApi({
    domain: 'tenant.example',
    clientId: 'id',
    clientSecret: 'secret',
    fetch: fetchImpl,
    // Its own: a 429 here must not hold back another test's calls.
    quota: new TenantQuota(),
  });
  return { api, seen };
}

const noContent = () => new Response(null, { status: 204 });
const auth0Error = (status: number, errorCode: string) =>
  Response.json({ statusCode: status, error: 'Error', message: errorCode, errorCode }, { status });
const roles = () =>
  Response.json([
    { id: 'rol_admin', name: 'org_admin' },
    { id: 'rol_member', name: 'org_member' },
  ]);
const invitation = {
  id: 'uinv_0123456789abcdef',
  organization_id: 'org_1',
  inviter: { name: 'Ada Admin' },
  invitee: { email: 'bo@helix-labs.example' },
  invitation_url:
    'https://app.example/auth/login?invitation=tkt&organization=org_1&organization_name=helix-labs-0a1b2c3d',
  created_at: '2026-11-27T10:00:00.000Z',
  expires_at: '2026-12-04T10:00:00.000Z',
  client_id: 'spa',
  connection_id: 'con_0000000000000001',
  app_metadata: {},
  user_metadata: {},
  roles: ['rol_member'],
  ticket_id: 'tkt',
};

const fastPolicy: RetryPolicy = {
  maxAttempts: 3,
  maxElapsedMs: 5_000,
  requestTimeoutMs: 500,
  baseDelayMs: 10,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the Management API client: the team calls', () => {
  it('sends each to its path, with its method and JSON body, and reads 201 and 204 answers', async () => {
    const { api, seen } = fakeTenant((request) =>
      request.method === 'POST' && request.path.endsWith('/invitations')
        ? Response.json(invitation, { status: 201 })
        : noContent(),
    );
    const body = {
      inviter: { name: 'Ada Admin' },
      invitee: { email: 'bo@helix-labs.example' },
      client_id: 'spa',
      ttl_sec: 604_800,
      roles: ['rol_member'],
      send_invitation_email: true,
    };
    expect(await api.organizations.createInvitation('org_1', body)).toEqual(invitation);
    await api.organizations.deleteInvitation('org_1', 'uinv_0123456789abcdef');
    await api.organizations.deleteMembers('org_1', { members: ['auth0|a/b'] });
    await api.organizations.deleteMemberRoles('org_1', 'auth0|a/b', { roles: ['rol_admin'] });
    expect(seen).toEqual([
      { method: 'POST', path: '/api/v2/organizations/org_1/invitations', body },
      {
        method: 'DELETE',
        path: '/api/v2/organizations/org_1/invitations/uinv_0123456789abcdef',
        body: undefined,
      },
      { method: 'DELETE', path: '/api/v2/organizations/org_1/members', body: { members: ['auth0|a/b'] } },
      {
        method: 'DELETE',
        path: '/api/v2/organizations/org_1/members/auth0%7Ca%2Fb/roles',
        body: { roles: ['rol_admin'] },
      },
    ]);
  });

  it("carries Auth0's 404 and its errorCode, and refuses an invitation without its link", async () => {
    const { api } = fakeTenant((request) =>
      request.method === 'POST'
        ? Response.json({ ...invitation, invitation_url: undefined }, { status: 201 })
        : auth0Error(404, 'inexistent_organization'),
    );
    await expect(api.organizations.deleteMembers('org_x', { members: ['auth0|a'] })).rejects.toMatchObject({
      operation: 'organizations.deleteMembers',
      status: 404,
      errorCode: 'inexistent_organization',
    });
    await expect(api.organizations.deleteInvitation('org_x', 'uinv_x')).rejects.toBeInstanceOf(
      ManagementApiError,
    );
    await expect(
      api.organizations.createInvitation('org_1', {
        inviter: { name: 'A' },
        invitee: { email: 'b@c.example' },
        client_id: 'spa',
      }),
    ).rejects.toThrow(/organizations.createInvitation answered with an unexpected shape/);
  });
});

describe('Auth0OrganizationTeamDirectory under faults', () => {
  const invite = (directory: Auth0OrganizationTeamDirectory) =>
    directory.createInvitation({
      organizationId: 'org_1',
      organizationType: 'defense',
      inviterName: 'Ada Admin',
      email: 'bo@helix-labs.example',
      role: 'org_member',
      ttlSeconds: 604_800,
    });

  it('does not repeat an invitation whose POST timed out: Auth0 may have created it', async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const { api, seen } = fakeTenant((request) =>
      request.path.startsWith('/api/v2/roles') ? roles() : 'hang',
    );
    const directory = new Auth0OrganizationTeamDirectory(api, 'spa', fastPolicy);
    const error = await invite(directory).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectoryUnavailableError);
    expect(error).toMatchObject({ operation: 'organizations.createInvitation', attempts: 1 });
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/v2/roles?name_filter=org_',
      'POST /api/v2/organizations/org_1/invitations',
    ]);
  });

  it('retries an invitation Auth0 refused unprocessed (429, 503), with the role id and the SPA', async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const { api, seen } = fakeTenant((request, index) => {
      if (request.path.startsWith('/api/v2/roles')) return roles();
      if (index === 1) return auth0Error(429, 'too_many_requests');
      if (index === 2) return auth0Error(503, 'temporarily_unavailable');
      return Response.json(invitation, { status: 201 });
    });
    const directory = new Auth0OrganizationTeamDirectory(api, 'spa-client', fastPolicy);
    expect(await invite(directory)).toEqual({
      invitationId: invitation.id,
      invitationUrl: invitation.invitation_url,
      createdAt: invitation.created_at,
      expiresAt: invitation.expires_at,
    });
    const posts = seen.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(3);
    expect(posts[2]?.body).toEqual({
      inviter: { name: 'Ada Admin' },
      invitee: { email: 'bo@helix-labs.example' },
      client_id: 'spa-client',
      ttl_sec: 604_800,
      roles: ['rol_member'],
      send_invitation_email: true,
      app_metadata: { role: 'user', kyc_status: 'not_started', organization_type: 'defense' },
    });
  });

  it('retries a delete that timed out, and takes a 404 as done', async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const { api, seen } = fakeTenant((request, index) => {
      if (request.path.includes('/invitations/')) return index === 0 ? 'hang' : noContent();
      return auth0Error(404, 'inexistent_organization');
    });
    const directory = new Auth0OrganizationTeamDirectory(api, 'spa', fastPolicy);
    await directory.deleteInvitation('org_1', 'uinv_1');
    await directory.removeMember('org_gone', 'auth0|a');
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
      'DELETE /api/v2/organizations/org_1/invitations/uinv_1',
      'DELETE /api/v2/organizations/org_1/invitations/uinv_1',
      'DELETE /api/v2/organizations/org_gone/members',
    ]);
  });

  it('gives up within one budget for all of a method’s calls, however long the tenant asks to wait', async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const { api, seen } = fakeTenant((request) =>
      request.path.startsWith('/api/v2/roles')
        ? roles()
        : new Response(JSON.stringify({ statusCode: 429, errorCode: 'too_many_requests' }), {
            status: 429,
            headers: { 'retry-after': '60' },
          }),
    );
    const directory = new Auth0OrganizationTeamDirectory(api, 'spa', { ...teamRetryPolicy, baseDelayMs: 10 });
    const started = Date.now();
    await expect(directory.setMemberRole('org_1', 'auth0|a', 'org_member')).rejects.toMatchObject({
      name: 'DirectoryUnavailableError',
      statusCode: 429,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('answers a role change for a user Auth0 does not hold as a member with MemberNotFoundError', async () => {
    const { api, seen } = fakeTenant((request) =>
      request.path.startsWith('/api/v2/roles') ? roles() : auth0Error(404, 'inexistent_member'),
    );
    const directory = new Auth0OrganizationTeamDirectory(api, 'spa', fastPolicy);
    await expect(directory.setMemberRole('org_1', 'auth0|a', 'org_admin')).rejects.toBeInstanceOf(
      MemberNotFoundError,
    );
    // Nothing deleted after a failed add.
    expect(seen.map((request) => request.method)).toEqual(['GET', 'POST']);
  });

  it('looks the roles up again after a failed lookup, and once only after a good one', async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const { api, seen } = fakeTenant((request, index) => {
      if (request.path.startsWith('/api/v2/roles'))
        return index === 0 ? auth0Error(403, 'insufficient_scope') : roles();
      return noContent();
    });
    const directory = new Auth0OrganizationTeamDirectory(api, 'spa', fastPolicy);
    await expect(directory.setMemberRole('org_1', 'auth0|a', 'org_admin')).rejects.toMatchObject({
      status: 403,
    });
    await directory.setMemberRole('org_1', 'auth0|a', 'org_admin');
    await directory.setMemberRole('org_1', 'auth0|a', 'org_member');
    expect(
      seen.map((request) => `${request.method} ${request.path} ${JSON.stringify(request.body)}`),
    ).toEqual([
      'GET /api/v2/roles?name_filter=org_ undefined',
      'GET /api/v2/roles?name_filter=org_ undefined',
      'POST /api/v2/organizations/org_1/members/auth0%7Ca/roles {"roles":["rol_admin"]}',
      'DELETE /api/v2/organizations/org_1/members/auth0%7Ca/roles {"roles":["rol_member"]}',
      'POST /api/v2/organizations/org_1/members/auth0%7Ca/roles {"roles":["rol_member"]}',
      'DELETE /api/v2/organizations/org_1/members/auth0%7Ca/roles {"roles":["rol_admin"]}',
    ]);
  });
});

describe('organizationTeamDirectory()', () => {
  it('needs the SPA client id in its environment, and does not remember the failure', async () => {
    const saved = process.env.AUTH0_SPA_CLIENT_ID;
    delete process.env.AUTH0_SPA_CLIENT_ID;
    try {
      await expect(organizationTeamDirectory()).rejects.toThrow(/AUTH0_SPA_CLIENT_ID/);
      await expect(organizationTeamDirectory()).rejects.toThrow(/AUTH0_SPA_CLIENT_ID/);
    } finally {
      if (saved !== undefined) process.env.AUTH0_SPA_CLIENT_ID = saved;
    }
  });
});

describe('Auth0OrganizationTeamDirectory against the local identity provider', () => {
  let idp: RunningIdp;
  let ses: Server;
  let sesUrl: string;
  let operator: string;
  let calls: string[];
  let directory: Auth0OrganizationTeamDirectory;
  let counter = 0;

  beforeAll(async () => {
    const sesPort = await freePort();
    ses = await sesServer({ host: '127.0.0.1', port: sesPort });
    sesUrl = `http://127.0.0.1:${sesPort}`;
    const port = await freePort();
    idp = await startIdp(
      testIdpOptions({
        port,
        sesEndpoint: sesUrl,
        // Room for the setup's calls: the counts are what is checked here, not the refusals.
        managementApiPlan: { name: 'roomy', burst: 1_000, perSecond: 1_000 },
        seedRoles: organizationRoles.map((name) => ({
          name,
          description: organizationRoleDescriptions[name],
        })),
      }),
    );
    operator = await managementToken(idp.url);
    calls = [];
    directory = new Auth0OrganizationTeamDirectory(
      createManagementApi({
        domain: `localhost:${port}`,
        // The team application's credentials: a call outside its scopes would be a 403.
        ...TEST_M2M_CLIENTS.auth0OrganizationTeam,
        baseUrl: idp.url,
        onCall: (operation) => calls.push(operation),
      }),
      TEST_CLIENTS.spa,
    );
  });

  afterAll(async () => {
    await idp?.close();
    await new Promise<void>((resolve) => (ses ? ses.close(() => resolve()) : resolve()));
  });

  /** The operator's view of the provider (every scope). */
  async function held(method: string, path: string, body?: unknown) {
    // Waits out a 429 (the setup's calls spend the same bucket as the code under test).
    const response = await managementFetch(`${idp.url}/api/v2${path}`, {
      method,
      headers: {
        authorization: `Bearer ${operator}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: inspected field by field
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
  }

  async function organizationWithMember(role: 'org_admin' | 'org_member') {
    counter += 1;
    const organization = (await held('POST', '/organizations', { name: `team-${Date.now()}-${counter}` }))
      .body;
    const user = (
      await held('POST', '/users', {
        email: `member-${Date.now()}-${counter}@helix-labs.example`,
        password: 'Initial-Pass-1',
        connection: 'Username-Password-Authentication',
      })
    ).body;
    expect(
      (await held('POST', `/organizations/${organization.id}/members`, { members: [user.user_id] })).status,
    ).toBe(204);
    const roleList = (await held('GET', '/roles')).body as { id: string; name: string }[];
    const roleId = roleList.find((candidate) => candidate.name === role)?.id;
    await held(
      'POST',
      `/organizations/${organization.id}/members/${encodeURIComponent(user.user_id)}/roles`,
      {
        roles: [roleId],
      },
    );
    return { organizationId: organization.id as string, userId: user.user_id as string };
  }

  const memberRoleNames = async (organizationId: string, userId: string) =>
    (
      (await held('GET', `/organizations/${organizationId}/members/${encodeURIComponent(userId)}/roles`))
        .body as {
        name: string;
      }[]
    ).map((role) => role.name);

  it('invites with the role, the SPA and the lifetime asked for, and Auth0 emails the link', async () => {
    const { organizationId } = await organizationWithMember('org_admin');
    const email = `invitee-${Date.now()}@helix-labs.example`;
    calls.length = 0;
    const created = await directory.createInvitation({
      organizationId,
      organizationType: 'defense',
      inviterName: 'Ada Admin',
      email,
      role: 'org_member',
      ttlSeconds: 3 * 24 * 60 * 60,
    });
    expect(created.invitationId).toMatch(/^uinv_/);
    const link = new URL(created.invitationUrl);
    expect(link.searchParams.get('organization')).toBe(organizationId);
    expect(link.searchParams.get('invitation')).toBeTruthy();
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(3 * 24 * 60 * 60 * 1000);
    const stored = (await held('GET', `/organizations/${organizationId}/invitations/${created.invitationId}`))
      .body;
    const memberRole = ((await held('GET', '/roles?name_filter=org_member')).body as { id: string }[])[0];
    expect(stored).toMatchObject({
      inviter: { name: 'Ada Admin' },
      invitee: { email },
      client_id: TEST_CLIENTS.spa,
      roles: [memberRole?.id],
      invitation_url: created.invitationUrl,
      app_metadata: { role: 'user', kyc_status: 'not_started', organization_type: 'defense' },
    });
    const mails = (
      (await (await fetch(`${sesUrl}/store`)).json()) as { emails: { destination: { to: string[] } }[] }
    ).emails;
    expect(mails.filter((mail) => mail.destination.to.includes(email))).toHaveLength(1);

    // Revoked: gone from the provider; revoking it again is not an error.
    await directory.deleteInvitation(organizationId, created.invitationId);
    expect(
      (await held('GET', `/organizations/${organizationId}/invitations/${created.invitationId}`)).status,
    ).toBe(404);
    await directory.deleteInvitation(organizationId, created.invitationId);
    expect(calls).toEqual([
      'roles.list',
      'organizations.createInvitation',
      'organizations.deleteInvitation',
      'organizations.deleteInvitation',
    ]);
  });

  it("changes a member's role to exactly the one asked for, in two calls, and again", async () => {
    const { organizationId, userId } = await organizationWithMember('org_admin');
    calls.length = 0;
    await directory.setMemberRole(organizationId, userId, 'org_member');
    expect(await memberRoleNames(organizationId, userId)).toEqual(['org_member']);
    await directory.setMemberRole(organizationId, userId, 'org_member');
    expect(await memberRoleNames(organizationId, userId)).toEqual(['org_member']);
    await directory.setMemberRole(organizationId, userId, 'org_admin');
    expect(await memberRoleNames(organizationId, userId)).toEqual(['org_admin']);
    // The role ids were looked up by the first test: none now.
    expect(calls).toEqual([
      'organizations.addMemberRoles',
      'organizations.deleteMemberRoles',
      'organizations.addMemberRoles',
      'organizations.deleteMemberRoles',
      'organizations.addMemberRoles',
      'organizations.deleteMemberRoles',
    ]);
  });

  it('refuses a role change for a user who is not a member', async () => {
    const { organizationId } = await organizationWithMember('org_admin');
    await expect(
      directory.setMemberRole(organizationId, 'auth0|nobody', 'org_member'),
    ).rejects.toBeInstanceOf(MemberNotFoundError);
  });

  it('removes a member (their roles with them), and a second removal is not an error', async () => {
    const { organizationId, userId } = await organizationWithMember('org_member');
    await directory.removeMember(organizationId, userId);
    const members = (await held('GET', `/organizations/${organizationId}/members`)).body as {
      user_id: string;
    }[];
    expect(members.map((member) => member.user_id)).not.toContain(userId);
    expect(
      (await held('GET', `/organizations/${organizationId}/members/${encodeURIComponent(userId)}/roles`))
        .status,
    ).toBe(404);
    await directory.removeMember(organizationId, userId);
    // An organization that is gone: nothing left to remove.
    await directory.removeMember('org_doesnotexist', userId);
    await directory.deleteInvitation('org_doesnotexist', 'uinv_x');
  });

  it("builds the handlers' directory from the team application's secret and the stage's SPA client id", async () => {
    const secretsManager = mockClient(SecretsManagerClient);
    const names = [
      'AWS_REGION',
      'AUTH0_DOMAIN',
      'AUTH0_MANAGEMENT_BASE_URL',
      'AUTH0_SPA_CLIENT_ID',
      secretEnvVars.auth0OrganizationTeam,
    ];
    const saved = names.map((name) => [name, process.env[name]] as const);
    try {
      clearSecretCache();
      secretsManager
        .on(GetSecretValueCommand, { SecretId: 'team-secret' })
        .resolves({ VersionId: 'v1', SecretString: JSON.stringify(TEST_M2M_CLIENTS.auth0OrganizationTeam) });
      Object.assign(process.env, {
        AWS_REGION: 'eu-central-1',
        AUTH0_DOMAIN: new URL(idp.url).host,
        AUTH0_MANAGEMENT_BASE_URL: idp.url,
        AUTH0_SPA_CLIENT_ID: TEST_CLIENTS.spa,
        [secretEnvVars.auth0OrganizationTeam]: 'team-secret',
      });
      const { organizationId } = await organizationWithMember('org_admin');
      await fetch(`${idp.url}${managementApiStatsPath}`, { method: 'DELETE' });
      const team = await organizationTeamDirectory();
      expect(await organizationTeamDirectory()).toBe(team);
      const created = await team.createInvitation({
        organizationId,
        organizationType: 'defense',
        inviterName: 'Ada Admin',
        email: `factory-${Date.now()}@helix-labs.example`,
        role: 'org_admin',
        ttlSeconds: 604_800,
      });
      const stats = (await (await fetch(`${idp.url}${managementApiStatsPath}`)).json()) as ManagementApiStats;
      // The team application's own token: its role lookup and the invitation.
      expect(stats.byClient).toEqual({ [TEST_M2M_CLIENTS.auth0OrganizationTeam.clientId]: 2 });
      const stored = (
        await held('GET', `/organizations/${organizationId}/invitations/${created.invitationId}`)
      ).body;
      expect(stored.client_id).toBe(TEST_CLIENTS.spa);
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      secretsManager.restore();
      clearSecretCache();
    }
  });

  it("spends the tenant's one bucket: every call is counted by the provider", async () => {
    const { organizationId, userId } = await organizationWithMember('org_member');
    // The role ids known (whichever test ran first), so only the changes are counted.
    await directory.setMemberRole(organizationId, userId, 'org_member');
    await fetch(`${idp.url}${managementApiStatsPath}`, { method: 'DELETE' });
    await directory.setMemberRole(organizationId, userId, 'org_admin');
    await directory.removeMember(organizationId, userId);
    const stats = (await (await fetch(`${idp.url}${managementApiStatsPath}`)).json()) as ManagementApiStats;
    expect(stats.byClient).toEqual({ [TEST_M2M_CLIENTS.auth0OrganizationTeam.clientId]: 3 });
    expect(stats.byOperation).toEqual({
      'POST /api/v2/organizations/{id}/members/{id}/roles': 1,
      'DELETE /api/v2/organizations/{id}/members/{id}/roles': 1,
      'DELETE /api/v2/organizations/{id}/members': 1,
    });
  });
});
