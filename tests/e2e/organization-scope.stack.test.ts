import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import { managementApi } from '#tests/helpers/management-api.ts';
import { organizationLogin } from '#tests/helpers/organization-login.ts';
import { registeredUser } from '#tests/helpers/registration.ts';
import { mailbox } from '#tests/helpers/tokens.ts';

// The organization registration creates and the API's organization check, through the web origin
// (ADR 0083; issue 27, item 1): the responsible person is the organization's org_admin, their
// login through it carries `org_id` and `org_roles`, GET /api/organizations/{id} answers it, and a
// token for another organization, or for none, gets 403 problem+json.

const stack = inject('stack');
const { claimsOf, signIn, exchange } = organizationLogin(stack);
const namespace = stack.idp.claimsNamespace;

const api = (path: string, token: string) =>
  fetch(`${stack.web}${path}`, { headers: { authorization: `Bearer ${token}` } });

const management = managementApi(stack);

async function organizationToken(organization: string, email: string, password: string) {
  const { back, verifier } = await signIn({ organization }, { email, password });
  expect(back.searchParams.get('error')).toBeNull();
  const tokens = await exchange(back.searchParams.get('code'), verifier);
  return tokens.access_token ?? '';
}

describe('the organization registration creates, and the organization-scoped API', () => {
  it("makes the responsible person its org_admin; their organization's token reads it, another organization's or none gets 403", async () => {
    const person = await registeredUser(stack, 'Helix Labs', 'defense');
    const me = (await (await api('/api/me', person.token)).json()) as { organizationId: string | null };
    const organizationId = me.organizationId ?? '';
    expect(organizationId).toMatch(/^org_/);
    // The login instructions' sign-in link goes through the organization (the web passes it on).
    const instructions = (await mailbox(stack)).find((mail) => mail.destination.to.includes(person.email));
    expect(instructions?.body.text).toContain(`${stack.web}/auth/login?organization=${organizationId}`);

    // What Auth0 holds: the organization, its one member with org_admin.
    const organization = await management('GET', `/organizations/${organizationId}`);
    expect(organization.body).toMatchObject({
      id: organizationId,
      name: expect.stringMatching(/^helix-labs-[0-9a-f]{8}$/),
      display_name: 'Helix Labs',
      metadata: { organization_type: 'defense', registered_by: person.userId },
    });
    const members = await management('GET', `/organizations/${organizationId}/members?fields=roles`);
    expect(members.body).toEqual([
      expect.objectContaining({
        user_id: person.userId,
        roles: [expect.objectContaining({ name: 'org_admin' })],
      }),
    ]);

    // A login through the organization: org_id and the member's role in the token.
    const token = await organizationToken(organizationId, person.email, person.password);
    expect(claimsOf(token)).toMatchObject({
      org_id: organizationId,
      [`${namespace}org_roles`]: ['org_admin'],
    });
    const own = await api(`/api/organizations/${organizationId}`, token);
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({
      organizationId,
      name: 'Helix Labs',
      organizationType: 'defense',
      role: 'org_admin',
    });

    // A token for another organization (the person is a member there too) is refused.
    const other = (
      await management('POST', '/organizations', { name: `other-${randomBytes(4).toString('hex')}` })
    ).body as { id: string };
    expect(
      (await management('POST', `/organizations/${other.id}/members`, { members: [person.userId] })).status,
    ).toBe(204);
    const otherToken = await organizationToken(other.id, person.email, person.password);
    expect(claimsOf(otherToken)).toMatchObject({ org_id: other.id });
    const mismatch = await api(`/api/organizations/${organizationId}`, otherToken);
    expect(mismatch.status).toBe(403);
    expect(mismatch.headers.get('content-type')).toContain('application/problem+json');
    expect(await mismatch.json()).toMatchObject({ type: problemTypes.organizationMismatch, status: 403 });

    // A sign-in without the organization (no org_id) is refused the same way.
    const none = await api(`/api/organizations/${organizationId}`, person.token);
    expect(none.status).toBe(403);
    expect(await none.json()).toMatchObject({ type: problemTypes.organizationMismatch, status: 403 });
  });
});
