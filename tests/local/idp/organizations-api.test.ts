import type { Server } from 'node:http';
import sesServer from 'aws-ses-v2-local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { auth0Plans, type ManagementApiStats, managementApiStatsPath } from '#local/idp/rate-limit.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { managementToken, TEST_CLIENTS, TEST_M2M_CLIENTS, testIdpOptions } from '#tests/helpers/idp.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';

// Auth0 Organizations through the local Management API (ADR 0081): organizations, the tenant's
// roles, members and their roles, invitations, the scopes each needs, the error shapes, the
// tenant's one rate-limit bucket (ADR 0061), and everything kept across a restart.

let idp: RunningIdp;
let ses: Server;
let sesUrl: string;
let token: string;
let dataDir: string;
let port: number;

beforeAll(async () => {
  const sesPort = await freePort();
  ses = await sesServer({ host: '127.0.0.1', port: sesPort });
  sesUrl = `http://127.0.0.1:${sesPort}`;
  port = await freePort();
  const options = testIdpOptions({ port, sesEndpoint: sesUrl, appOrigins: ['http://localhost:5199'] });
  dataDir = options.dataDir;
  idp = await startIdp(options);
  token = await managementToken(idp.url);
});

afterAll(async () => {
  await idp?.close();
  await new Promise<void>((resolve) => (ses ? ses.close(() => resolve()) : resolve()));
});

async function api(method: string, path: string, body?: unknown, bearer: string | null = token) {
  const res = await managementFetch(`${idp.url}${path}`, {
    method,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as any };
}

let counter = 0;
const unique = (prefix: string) => {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
};

async function createOrganization(extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v2/organizations', { name: unique('org'), ...extra });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; display_name?: string };
}

async function createUser(email = `${unique('member')}@example.com`) {
  const res = await api('POST', '/api/v2/users', {
    email,
    password: 'Initial-Pass-1',
    connection: 'Username-Password-Authentication',
  });
  expect(res.status).toBe(201);
  return res.body as { user_id: string; email: string };
}

async function createRole(name = unique('role')) {
  const res = await api('POST', '/api/v2/roles', { name, description: `The ${name} role` });
  expect(res.status).toBe(200);
  return res.body as { id: string; name: string; description: string };
}

const orgPath = (id: string, rest = '') => `/api/v2/organizations/${encodeURIComponent(id)}${rest}`;
const memberRoles = (orgId: string, userId: string) =>
  orgPath(orgId, `/members/${encodeURIComponent(userId)}/roles`);

describe('organizations', () => {
  it("creates, reads (by id and by name), lists, patches and deletes one, in Auth0's shape", async () => {
    const name = unique('acme');
    const created = await api('POST', '/api/v2/organizations', {
      name,
      display_name: 'Acme Pharma',
      metadata: { organization_type: 'pharma' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^org_[0-9a-f]{16}$/),
      name,
      display_name: 'Acme Pharma',
      metadata: { organization_type: 'pharma' },
    });
    const { id } = created.body;

    expect((await api('GET', orgPath(id))).body).toEqual(created.body);
    expect((await api('GET', `/api/v2/organizations/name/${name}`)).body).toEqual(created.body);
    const listed = await api('GET', '/api/v2/organizations?include_totals=true&per_page=100');
    expect(listed.body).toMatchObject({ start: 0, limit: 100 });
    expect(listed.body.organizations).toContainEqual(created.body);
    expect(listed.body.total).toBe(listed.body.organizations.length);
    expect(Array.isArray((await api('GET', '/api/v2/organizations')).body)).toBe(true);

    const patched = await api('PATCH', orgPath(id), {
      display_name: 'Acme Pharma Ltd',
      metadata: { organization_type: null, tier: 'gold' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id,
      name,
      display_name: 'Acme Pharma Ltd',
      metadata: { tier: 'gold' },
    });

    expect((await api('DELETE', orgPath(id))).status).toBe(204);
    const gone = await api('GET', orgPath(id));
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'No organization found by that id or name',
      errorCode: 'inexistent_organization',
    });
  });

  it('answers 409 to a second organization of one name, and 400 to a name Auth0 refuses', async () => {
    const { name } = await createOrganization();
    const again = await api('POST', '/api/v2/organizations', { name });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(typeof again.body.errorCode).toBe('string');

    for (const bad of ['Upper-Case', 'has space', '', 'x'.repeat(51)]) {
      const res = await api('POST', '/api/v2/organizations', { name: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errorCode: 'invalid_body' });
    }
    const extra = await api('POST', '/api/v2/organizations', { name: unique('ok'), colour: 'red' });
    expect(extra.status).toBe(400);
  });
});

describe('roles, members and member roles', () => {
  it('adds members, gives and takes roles within the organization, and lists both ways', async () => {
    const organization = await createOrganization({ display_name: 'Team' });
    const admin = await createRole(unique('org_admin'));
    const member = await createRole(unique('org_member'));
    const duplicate = await api('POST', '/api/v2/roles', { name: admin.name });
    expect(duplicate.status).toBe(409);
    expect((await api('GET', '/api/v2/roles')).body).toEqual(expect.arrayContaining([admin, member]));

    const alice = await createUser();
    const bob = await createUser();
    const added = await api('POST', orgPath(organization.id, '/members'), {
      members: [alice.user_id, bob.user_id],
    });
    expect(added.status).toBe(204);
    // Adding a member again changes nothing.
    expect(
      (await api('POST', orgPath(organization.id, '/members'), { members: [alice.user_id] })).status,
    ).toBe(204);

    expect(
      (await api('POST', memberRoles(organization.id, alice.user_id), { roles: [admin.id] })).status,
    ).toBe(204);
    expect(
      (await api('POST', memberRoles(organization.id, bob.user_id), { roles: [member.id] })).status,
    ).toBe(204);
    expect((await api('GET', memberRoles(organization.id, alice.user_id))).body).toEqual([admin]);

    const members = await api('GET', orgPath(organization.id, '/members'));
    expect(members.body).toHaveLength(2);
    expect(members.body[0]).toEqual({
      user_id: alice.user_id,
      email: alice.email,
      name: alice.email,
      picture: expect.any(String),
    });
    const withRoles = await api('GET', orgPath(organization.id, '/members?fields=roles&include_totals=true'));
    expect(withRoles.body).toMatchObject({ start: 0, limit: 50, total: 2 });
    expect(withRoles.body.members.map((m: { roles: unknown }) => m.roles)).toEqual([
      [{ id: admin.id, name: admin.name }],
      [{ id: member.id, name: member.name }],
    ]);

    const orgsOfAlice = await api('GET', `/api/v2/users/${encodeURIComponent(alice.user_id)}/organizations`);
    expect(orgsOfAlice.status).toBe(200);
    expect(orgsOfAlice.body).toEqual([
      expect.objectContaining({ id: organization.id, name: organization.name }),
    ]);

    expect(
      (await api('DELETE', memberRoles(organization.id, alice.user_id), { roles: [admin.id] })).status,
    ).toBe(204);
    expect((await api('GET', memberRoles(organization.id, alice.user_id))).body).toEqual([]);

    expect(
      (await api('DELETE', orgPath(organization.id, '/members'), { members: [bob.user_id] })).status,
    ).toBe(204);
    const left = await api('GET', orgPath(organization.id, '/members'));
    expect(left.body.map((m: { user_id: string }) => m.user_id)).toEqual([alice.user_id]);
    expect((await api('GET', memberRoles(organization.id, bob.user_id))).status).toBe(404);

    // A deleted user leaves the organization.
    expect((await api('DELETE', `/api/v2/users/${encodeURIComponent(alice.user_id)}`)).status).toBe(204);
    expect((await api('GET', orgPath(organization.id, '/members'))).body).toEqual([]);
  });

  it('answers 404 for an unknown organization, user or role, and 400 for a body Auth0 refuses', async () => {
    const organization = await createOrganization();
    const user = await createUser();
    expect((await api('POST', orgPath('org_missing', '/members'), { members: [user.user_id] })).status).toBe(
      404,
    );
    const unknownUser = await api('POST', orgPath(organization.id, '/members'), {
      members: ['auth0|nobody'],
    });
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body).toMatchObject({ statusCode: 404, errorCode: 'inexistent_user' });
    await api('POST', orgPath(organization.id, '/members'), { members: [user.user_id] });
    const unknownRole = await api('POST', memberRoles(organization.id, user.user_id), {
      roles: ['rol_missing'],
    });
    expect(unknownRole.status).toBe(404);
    expect(unknownRole.body).toMatchObject({ statusCode: 404, errorCode: 'inexistent_role' });
    expect((await api('POST', orgPath(organization.id, '/members'), { members: [] })).status).toBe(400);
    expect((await api('POST', orgPath(organization.id, '/members'), { users: [user.user_id] })).status).toBe(
      400,
    );
    expect((await api('GET', '/api/v2/users/auth0%7Cnobody/organizations')).status).toBe(404);
  });
});

interface StoredEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}

async function mailsTo(address: string): Promise<StoredEmail[]> {
  const store = (await (await fetch(`${sesUrl}/store`)).json()) as { emails: StoredEmail[] };
  return store.emails.filter((e) => e.destination.to.includes(address));
}

describe('invitations', () => {
  it("creates one in Auth0's shape, emails its link, reads, lists and deletes it", async () => {
    const organization = await createOrganization({ display_name: 'Invite Co' });
    const role = await createRole();
    const email = `${unique('invitee')}@example.com`;
    const before = Date.now();
    const created = await api('POST', orgPath(organization.id, '/invitations'), {
      inviter: { name: 'Alice Admin' },
      invitee: { email },
      client_id: TEST_CLIENTS.spa,
      roles: [role.id],
      app_metadata: { role: 'user' },
    });
    expect(created.status).toBe(201);
    const invitation = created.body;
    expect(invitation).toEqual({
      id: expect.stringMatching(/^uinv_/),
      organization_id: organization.id,
      inviter: { name: 'Alice Admin' },
      invitee: { email },
      invitation_url: expect.any(String),
      created_at: expect.any(String),
      expires_at: expect.any(String),
      client_id: TEST_CLIENTS.spa,
      connection_id: expect.stringMatching(/^con_/),
      app_metadata: { role: 'user' },
      user_metadata: {},
      roles: [role.id],
      ticket_id: expect.any(String),
    });
    const link = new URL(invitation.invitation_url);
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:5199/auth/login');
    expect(link.searchParams.get('invitation')).toBe(invitation.ticket_id);
    expect(link.searchParams.get('organization')).toBe(organization.id);
    expect(link.searchParams.get('organization_name')).toBe(organization.name);
    // Seven days unless ttl_sec says otherwise.
    const lifetime = Date.parse(invitation.expires_at) - Date.parse(invitation.created_at);
    expect(lifetime).toBe(604_800_000);
    expect(Date.parse(invitation.created_at)).toBeGreaterThanOrEqual(before - 1000);

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("You've been invited to join Invite Co");
    expect(mails[0]?.body.text).toContain(invitation.invitation_url);

    expect((await api('GET', orgPath(organization.id, `/invitations/${invitation.id}`))).body).toEqual(
      invitation,
    );
    expect((await api('GET', orgPath(organization.id, '/invitations'))).body).toEqual([invitation]);
    expect((await api('DELETE', orgPath(organization.id, `/invitations/${invitation.id}`))).status).toBe(204);
    const gone = await api('GET', orgPath(organization.id, `/invitations/${invitation.id}`));
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('honours ttl_sec up to 30 days, sends nothing with send_invitation_email false, and checks what it names', async () => {
    const organization = await createOrganization();
    const email = `${unique('quiet')}@example.com`;
    const base = { inviter: { name: 'A' }, invitee: { email }, client_id: TEST_CLIENTS.spa };
    const short = await api('POST', orgPath(organization.id, '/invitations'), {
      ...base,
      ttl_sec: 3600,
      send_invitation_email: false,
    });
    expect(short.status).toBe(201);
    expect(Date.parse(short.body.expires_at) - Date.parse(short.body.created_at)).toBe(3_600_000);
    expect(await mailsTo(email)).toEqual([]);

    expect(
      (await api('POST', orgPath(organization.id, '/invitations'), { ...base, ttl_sec: 2_592_001 })).status,
    ).toBe(400);
    const zero = await api('POST', orgPath(organization.id, '/invitations'), {
      ...base,
      ttl_sec: 0,
      send_invitation_email: false,
    });
    expect(Date.parse(zero.body.expires_at) - Date.parse(zero.body.created_at)).toBe(604_800_000);
    expect(
      (await api('POST', orgPath(organization.id, '/invitations'), { ...base, client_id: 'other' })).status,
    ).toBe(400);
    expect(
      (await api('POST', orgPath(organization.id, '/invitations'), { ...base, roles: ['rol_nope'] })).status,
    ).toBe(404);
    expect((await api('POST', orgPath('org_missing', '/invitations'), base)).status).toBe(404);
  });
});

describe('scopes', () => {
  it("answers 403 insufficient_scope without the endpoint's scope, 401 without a token", async () => {
    const organization = await createOrganization();
    const readOnly = await managementToken(idp.url, 'read:organizations');
    expect((await api('GET', orgPath(organization.id), undefined, readOnly)).status).toBe(200);
    const refused = await api('POST', '/api/v2/organizations', { name: unique('nope') }, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'Insufficient scope, expected any of: create:organizations',
      errorCode: 'insufficient_scope',
    });
    // Roles of members need their own scope, also when listed with the members.
    const membersOnly = await managementToken(idp.url, 'read:organization_members');
    expect((await api('GET', orgPath(organization.id, '/members'), undefined, membersOnly)).status).toBe(200);
    expect(
      (await api('GET', orgPath(organization.id, '/members?fields=roles'), undefined, membersOnly)).status,
    ).toBe(403);
    // The functions' applications hold only the organization scopes their calls need
    // (lambdas/grants.ts): registration's create and add, no invitations or deletes (ADR 0083);
    // the KYC sync none.
    const registration = await managementToken(idp.url, undefined, TEST_M2M_CLIENTS.auth0Registration);
    const sync = await managementToken(idp.url, undefined, TEST_M2M_CLIENTS.auth0KycSync);
    for (const [method, path, token] of [
      ['GET', '/api/v2/organizations', sync],
      ['GET', '/api/v2/roles', sync],
      ['GET', orgPath(organization.id, '/invitations'), registration],
      ['DELETE', orgPath(organization.id), registration],
      ['DELETE', orgPath(organization.id, '/members'), registration],
    ] as const) {
      const res = await api(
        method,
        path,
        method === 'DELETE' && path.endsWith('/members') ? { members: ['auth0|x'] } : undefined,
        token,
      );
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.errorCode).toBe('insufficient_scope');
    }
    expect((await api('GET', '/api/v2/roles', undefined, registration)).status).toBe(200);
    expect((await api('GET', '/api/v2/organizations', undefined, null)).status).toBe(401);
  });

  it("grants the team page's application its invitations, member-role changes and removals, nothing else", async () => {
    const organization = await createOrganization();
    const user = await createUser();
    const role = await createRole();
    expect(
      (await api('POST', orgPath(organization.id, '/members'), { members: [user.user_id] })).status,
    ).toBe(204);
    const team = await managementToken(idp.url, undefined, TEST_M2M_CLIENTS.auth0OrganizationTeam);
    const invitation = {
      inviter: { name: 'Alice Admin' },
      invitee: { email: `${unique('invitee')}@example.com` },
      client_id: TEST_CLIENTS.spa,
      roles: [role.id],
      send_invitation_email: false,
    };
    const created = await api('POST', orgPath(organization.id, '/invitations'), invitation, team);
    expect(created.status).toBe(201);
    const member = orgPath(organization.id, `/members/${encodeURIComponent(user.user_id)}/roles`);
    for (const [method, path, body, status] of [
      ['GET', '/api/v2/roles', undefined, 200],
      ['POST', member, { roles: [role.id] }, 204],
      ['DELETE', member, { roles: [role.id] }, 204],
      ['DELETE', orgPath(organization.id, `/invitations/${created.body.id}`), undefined, 204],
      ['DELETE', orgPath(organization.id, '/members'), { members: [user.user_id] }, 204],
    ] as const) {
      expect([method, path, (await api(method, path, body, team)).status]).toEqual([method, path, status]);
    }
    // Reading the team, adding members, organizations or users: the product's own records say who
    // is a member (ADR 0084).
    for (const [method, path, body] of [
      ['GET', orgPath(organization.id, '/members'), undefined],
      ['GET', orgPath(organization.id, '/invitations'), undefined],
      ['GET', member, undefined],
      ['POST', orgPath(organization.id, '/members'), { members: [user.user_id] }],
      ['GET', orgPath(organization.id), undefined],
      ['POST', '/api/v2/organizations', { name: unique('org') }],
      ['GET', `/api/v2/users/${encodeURIComponent(user.user_id)}`, undefined],
    ] as const) {
      const res = await api(method, path, body, team);
      expect([method, path, res.status, res.body.errorCode]).toEqual([
        method,
        path,
        403,
        'insufficient_scope',
      ]);
    }
  });
});

describe('the tenant rate limit', () => {
  it('counts every organization call in the stats, with the x-ratelimit headers', async () => {
    await fetch(`${idp.url}${managementApiStatsPath}`, { method: 'DELETE' });
    const organization = await createOrganization();
    const read = await api('GET', orgPath(organization.id, '/members'));
    expect(read.headers.get('x-ratelimit-limit')).toBe(String(auth0Plans['self-service'].burst));
    expect(read.headers.get('x-ratelimit-remaining')).not.toBeNull();
    await api('GET', `/api/v2/organizations/name/${organization.name}`);
    await api('GET', orgPath(organization.id, '/invitations/uinv_missing'));
    const stats = (await (await fetch(`${idp.url}${managementApiStatsPath}`)).json()) as ManagementApiStats;
    expect(stats.calls).toBe(4);
    expect(stats.byOperation).toEqual({
      'POST /api/v2/organizations': 1,
      'GET /api/v2/organizations/{id}/members': 1,
      'GET /api/v2/organizations/name/{id}': 1,
      'GET /api/v2/organizations/{id}/invitations/{id}': 1,
    });
  });

  it('refuses organization calls with 429 once the Free bucket is empty, like any other call', async () => {
    const free = await startIdp(
      testIdpOptions({ port: await freePort(), managementApiPlan: auth0Plans.free }),
    );
    try {
      const freeToken = await managementToken(free.url);
      const statuses: number[] = [];
      for (let n = 0; n < 50 && !statuses.includes(429); n++) {
        const res = await fetch(`${free.url}/api/v2/organizations`, {
          headers: { authorization: `Bearer ${freeToken}` },
        });
        statuses.push(res.status);
        if (res.status === 429) {
          expect(await res.json()).toEqual({
            statusCode: 429,
            error: 'Too Many Requests',
            message: 'Global limit has been reached',
            errorCode: 'too_many_requests',
          });
        } else await res.arrayBuffer();
      }
      expect(statuses).toContain(429);
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
    } finally {
      await free.close();
    }
  });
});

describe('persistence', () => {
  it('keeps organizations, roles, members and invitations across a restart of the provider', async () => {
    const organization = await createOrganization({ display_name: 'Durable' });
    const role = await createRole();
    const user = await createUser();
    await api('POST', orgPath(organization.id, '/members'), { members: [user.user_id] });
    await api('POST', memberRoles(organization.id, user.user_id), { roles: [role.id] });
    const invitation = await api('POST', orgPath(organization.id, '/invitations'), {
      inviter: { name: 'A' },
      invitee: { email: `${unique('later')}@example.com` },
      client_id: TEST_CLIENTS.spa,
      send_invitation_email: false,
    });

    await idp.close();
    idp = await startIdp(
      testIdpOptions({ port, sesEndpoint: sesUrl, dataDir, appOrigins: ['http://localhost:5199'] }),
    );
    token = await managementToken(idp.url);

    expect((await api('GET', orgPath(organization.id))).body).toMatchObject({ display_name: 'Durable' });
    expect((await api('GET', memberRoles(organization.id, user.user_id))).body).toEqual([role]);
    expect((await api('GET', orgPath(organization.id, `/invitations/${invitation.body.id}`))).body).toEqual(
      invitation.body,
    );
  });
});
