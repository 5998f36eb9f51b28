import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { managementFetch } from '#tests/helpers/management-api.ts';
import { organizationLogin } from '#tests/helpers/organization-login.ts';
import { createTestUser, mailbox, managementToken, type TestUser } from '#tests/helpers/tokens.ts';

// The login parts of Auth0 Organizations on the running local stack (ADR 0081; issue 27, item 1),
// the way the web signs in (code + PKCE to its /auth/callback): a member's login through an
// organization carries `org_id` in both tokens and the API accepts the access token; a
// non-member is sent back with access_denied; an invitation emailed through the local SES is
// accepted once; a refresh keeps `org_id`.

const stack = inject('stack');
const { Browser, authorize, tokenRequest, claimsOf, signIn, exchange, redirectUri } =
  organizationLogin(stack);
let mgmt: string;
let member: TestUser;

async function api(method: string, path: string, body?: unknown) {
  const res = await managementFetch(`${stack.idp.issuer}api/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${mgmt}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

beforeAll(async () => {
  mgmt = await managementToken(stack);
  member = await createTestUser(stack);
});

describe('a login through an organization on the local stack', () => {
  it('carries org_id in both tokens, the API takes the token, and a refresh keeps org_id', async () => {
    const organization = (await api('POST', '/organizations', { name: unique('acme'), display_name: 'Acme' }))
      .body;
    expect(
      (await api('POST', `/organizations/${organization.id}/members`, { members: [member.userId] })).status,
    ).toBe(204);
    const { back, verifier } = await signIn(
      { organization: organization.id },
      { email: member.email, password: member.password },
    );
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    const tokens = await exchange(back.searchParams.get('code'), verifier);
    expect(claimsOf(tokens.id_token)).toMatchObject({ org_id: organization.id, org_name: organization.name });
    expect(claimsOf(tokens.access_token)).toMatchObject({ org_id: organization.id });
    const me = await fetch(`${stack.web}/api/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);

    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.access_token)).toMatchObject({ org_id: organization.id });
  });

  it('sends a non-member back to the site with access_denied', async () => {
    const organization = (await api('POST', '/organizations', { name: unique('other') })).body;
    const { back } = await signIn(
      { organization: organization.id },
      { email: member.email, password: member.password },
    );
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('accepts an emailed invitation once: a verified member with its role, tokens with org_id', async () => {
    const organization = (await api('POST', '/organizations', { name: unique('team'), display_name: 'Team' }))
      .body;
    const role = (await api('POST', '/roles', { name: unique('org_member') })).body;
    const email = `${unique('invitee')}@test-org.example`;
    const invitation = await api('POST', `/organizations/${organization.id}/invitations`, {
      inviter: { name: 'Org Admin' },
      invitee: { email },
      client_id: stack.idp.spaClientId,
      roles: [role.id],
      app_metadata: { role: 'user', organization_type: 'commercial', kyc_status: 'not_started' },
    });
    expect(invitation.status).toBe(201);

    // The email the local SES received carries the link to the site's login route.
    let mail: Awaited<ReturnType<typeof mailbox>>[number] | undefined;
    for (let attempt = 0; attempt < 20 && !mail; attempt += 1) {
      mail = (await mailbox(stack)).find((m) => m.destination.to.includes(email));
      if (!mail) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(mail?.subject).toBe("You've been invited to join Team");
    const link = new URL(/(http:\/\/\S+)/.exec(mail?.body.text ?? '')?.[1] ?? 'http://missing/');
    expect(`${link.origin}${link.pathname}`).toBe(`${stack.web}/auth/login`);
    const params = {
      invitation: link.searchParams.get('invitation') ?? '',
      organization: link.searchParams.get('organization') ?? '',
    };

    const { back, verifier } = await signIn(params, { password: 'Invitee-Pass-1' });
    const tokens = await exchange(back.searchParams.get('code'), verifier);
    expect(claimsOf(tokens.access_token)).toMatchObject({
      org_id: organization.id,
      [`${stack.idp.claimsNamespace}email_verified`]: true,
    });
    const users = await api('GET', `/users-by-email?email=${encodeURIComponent(email)}`);
    const userId = users.body[0].user_id as string;
    expect(users.body[0].email_verified).toBe(true);
    expect(
      (await api('GET', `/organizations/${organization.id}/members/${encodeURIComponent(userId)}/roles`))
        .body,
    ).toEqual([role]);

    const again = await new Browser().go(authorize(params).url);
    expect(`${again.url.origin}${again.url.pathname}`).toBe(redirectUri);
    expect(again.url.searchParams.get('error')).toBe('invalid_request');
  });
});
