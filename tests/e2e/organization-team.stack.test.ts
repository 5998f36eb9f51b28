import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import type { OrganizationInvitation, OrganizationTeamResponse } from '#contracts/organization-team.ts';
import { problemContentType, problemTypes } from '#contracts/problem.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { invitationLink as sharedInvitationLink } from '#tests/helpers/invitations.ts';
import { managementApi } from '#tests/helpers/management-api.ts';
import { organizationLogin } from '#tests/helpers/organization-login.ts';
import { approvedByPersona, organizationFounder } from '#tests/helpers/organizations.ts';
import { webApi } from '#tests/helpers/persona-webhooks.ts';
import { mailbox } from '#tests/helpers/tokens.ts';

// Issue 27, items 2 and 3, through the web origin (ADR 0084): an approved org_admin invites a
// colleague; Auth0's invitation email brings them in (a password, the address verified, a
// member with the invitation's role); they join, consent and pass their own verification; the
// team page's list shows them; revoking and resending change what the links do; a role change and
// a removal reach Auth0 and the product, and the removed member's session ends at its next check.
// A token for another organization is refused throughout. Every step is in the admin trail.

const stack = inject('stack');
const api = webApi(stack);
const { Browser, authorize, formAction, exchange, signIn } = organizationLogin(stack);

const management = managementApi(stack);

const team = (organizationId: string, token: string) =>
  api(`/api/organizations/${organizationId}/team`, { token });

async function invite(organizationId: string, token: string, email: string, role = 'org_member') {
  return api(`/api/organizations/${organizationId}/invitations`, {
    method: 'POST',
    token,
    body: JSON.stringify({ email, role }),
  });
}

const invitationLink = (email: string) => sharedInvitationLink(stack, email);

/** Follows the invitation link as the web does (its login route passes both to /authorize). */
async function accept(link: URL, email: string, password: string) {
  const browser = new Browser();
  const request = authorize({
    invitation: link.searchParams.get('invitation') ?? '',
    organization: link.searchParams.get('organization') ?? '',
  });
  const page = await browser.go(request.url);
  if (page.status !== 200) return { error: page.url.searchParams.get('error') };
  const back = await browser.go(formAction(page.html), { email, password });
  const code = back.url.searchParams.get('code');
  if (!code) return { error: back.url.searchParams.get('error') };
  const tokens = await exchange(code, request.verifier);
  return { token: tokens.access_token ?? '' };
}

const problemOf = async (response: Response) => {
  expect(response.headers.get('content-type')).toContain(problemContentType);
  return (await response.json()) as { type: string; status: number; detail?: string; errors?: unknown[] };
};

const userIdOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;

describe("an organization's team", () => {
  it('invites, accepts, verifies, lists, changes a role and removes, refusing other organizations throughout', async () => {
    const founder = await organizationFounder(stack, 'Northwatch Team');
    const org = founder.organizationId;
    const colleague = `colleague-${randomBytes(5).toString('hex')}@northwatch.example`;

    // The registrant is the first admin; until approved, they cannot invite.
    const first = await team(org, founder.orgToken);
    expect(first.status).toBe(200);
    expect(((await first.json()) as OrganizationTeamResponse).members).toEqual([
      expect.objectContaining({
        userId: founder.userId,
        role: 'org_admin',
        emailVerified: true,
        kycStatus: 'not_started',
      }),
    ]);
    const early = await invite(org, founder.orgToken, colleague);
    expect(early.status).toBe(403);
    expect((await problemOf(early)).type).toBe(problemTypes.organizationApprovalRequired);
    await approvedByPersona(stack, founder);

    // A personal address is refused on the field, and nothing is sent.
    const personal = await invite(org, founder.orgToken, 'someone@gmail.com');
    expect(personal.status).toBe(400);
    expect((await problemOf(personal)).errors).toEqual([expect.objectContaining({ field: 'email' })]);
    expect((await mailbox(stack)).some((mail) => mail.destination.to.includes('someone@gmail.com'))).toBe(
      false,
    );

    // Another organization's admin is refused before anything is read.
    const other = await organizationFounder(stack, 'Elsewhere Labs');
    const crossed = await invite(org, other.orgToken, colleague);
    expect(crossed.status).toBe(403);
    expect((await problemOf(crossed)).type).toBe(problemTypes.organizationMismatch);
    const crossedList = await team(org, other.orgToken);
    expect((await problemOf(crossedList)).type).toBe(problemTypes.organizationMismatch);

    // The invitation: Auth0 sends it; a second one, or one for a member, is a clear 409.
    const created = await invite(org, founder.orgToken, colleague);
    expect(created.status).toBe(201);
    const invitation = (await created.json()) as OrganizationInvitation;
    expect(invitation).toMatchObject({ email: colleague, role: 'org_member', expired: false });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.invitedAt)).toBe(7 * 24 * 3600 * 1000);
    const again = await invite(org, founder.orgToken, colleague);
    expect(again.status).toBe(409);
    expect((await problemOf(again)).type).toBe(problemTypes.invitationPending);
    const member = await invite(org, founder.orgToken, founder.email);
    expect(member.status).toBe(409);
    expect((await problemOf(member)).type).toBe(problemTypes.alreadyMember);
    const { mail, link } = await invitationLink(colleague);
    expect(mail?.body.text).toContain('Northwatch Team');
    expect(`${link.origin}${link.pathname}`).toBe(`${stack.web}/auth/login`);
    expect(link.searchParams.get('organization')).toBe(org);
    const pending = (await (await team(org, founder.orgToken)).json()) as OrganizationTeamResponse;
    expect(pending.invitations).toEqual([invitation]);

    // Accepted: a password, and the invitee is signed in through the organization, verified.
    const password = `Invitee-${randomBytes(6).toString('hex')}`;
    const accepted = await accept(link, colleague, password);
    const inviteeToken = accepted.token ?? '';
    expect(inviteeToken).not.toBe('');
    const inviteeId = userIdOf(inviteeToken);
    const joined = await api(`/api/organizations/${org}/membership`, { method: 'POST', token: inviteeToken });
    expect(joined.status).toBe(200);
    expect(await joined.json()).toEqual({ organizationId: org, role: 'org_member' });
    const me = await (await api('/api/me', { token: inviteeToken })).json();
    expect(me).toMatchObject({
      userId: inviteeId,
      email: colleague,
      emailVerified: true,
      organizationId: org,
      organizationRole: 'org_member',
      organizationName: 'Northwatch Team',
      organizationType: 'defense',
      kycStatus: 'not_started',
    });
    // The link is single use.
    expect((await accept(link, colleague, password)).error).toBe('invalid_request');

    // A member is not an admin: the team page is not theirs.
    const notAdmin = await team(org, inviteeToken);
    expect(notAdmin.status).toBe(403);
    expect((await problemOf(notAdmin)).type).toBe(problemTypes.organizationRoleRequired);

    // Their own consent and verification, then the team page shows them verified.
    await approvedByPersona(stack, { token: inviteeToken, userId: inviteeId });
    const listed = (await (await team(org, founder.orgToken)).json()) as OrganizationTeamResponse;
    expect(listed.invitations).toEqual([]);
    expect(listed.members).toEqual([
      expect.objectContaining({ userId: founder.userId, role: 'org_admin', kycStatus: 'approved' }),
      expect.objectContaining({
        userId: inviteeId,
        email: colleague,
        role: 'org_member',
        emailVerified: true,
        kycStatus: 'approved',
      }),
    ]);

    // A role change reaches Auth0's member roles and the member's own view at once.
    const promoted = await api(`/api/organizations/${org}/members/${encodeURIComponent(inviteeId)}/role`, {
      method: 'PUT',
      token: founder.orgToken,
      body: JSON.stringify({ role: 'org_admin' }),
    });
    expect(promoted.status).toBe(200);
    const roles = await management(
      'GET',
      `/organizations/${org}/members/${encodeURIComponent(inviteeId)}/roles`,
    );
    expect(roles.body.map((role: { name: string }) => role.name)).toEqual(['org_admin']);
    expect(await (await api('/api/me', { token: inviteeToken })).json()).toMatchObject({
      organizationRole: 'org_admin',
    });

    // Removed: Auth0's membership ends, the next check ends the session, the consent records stay.
    const removed = await api(`/api/organizations/${org}/members/${encodeURIComponent(inviteeId)}`, {
      method: 'DELETE',
      token: founder.orgToken,
    });
    expect(removed.status).toBe(200);
    const members = await management('GET', `/organizations/${org}/members`);
    expect(members.body.map((entry: { user_id: string }) => entry.user_id)).toEqual([founder.userId]);
    const ended = await api('/api/me', { token: inviteeToken });
    expect(ended.status).toBe(401);
    expect((await problemOf(ended)).type).toBe(problemTypes.organizationMembershipEnded);
    const stale = await team(org, inviteeToken);
    expect((await problemOf(stale)).type).toBe(problemTypes.organizationMembershipEnded);
    const { back } = await signIn({ organization: org }, { email: colleague, password });
    expect(back.searchParams.get('error')).toBe('access_denied');
    const db = stackDb(stack);
    const ledger = await db.client.send(
      new QueryCommand({
        TableName: db.tableName('ConsentLedger'),
        KeyConditionExpression: 'subjectId = :s',
        ExpressionAttributeValues: { ':s': inviteeId },
      }),
    );
    expect(ledger.Items?.length).toBeGreaterThan(0);

    // Who did what, in the admin trail.
    const trail = await db.client.send(
      new QueryCommand({
        TableName: db.tableName('AdminAuditLog'),
        IndexName: 'byTarget',
        KeyConditionExpression: 'targetId = :t',
        ExpressionAttributeValues: { ':t': inviteeId },
      }),
    );
    expect(trail.Items?.map((entry) => [entry.action, entry.actorId])).toEqual([
      ['member_joined', inviteeId],
      ['member_role_changed', founder.userId],
      ['member_removed', founder.userId],
    ]);
  });

  it('revokes an invitation (its link stops working) and resends one (a new link; the old one stops)', async () => {
    const founder = await organizationFounder(stack, 'Revoke Labs');
    const org = founder.organizationId;
    await approvedByPersona(stack, founder);

    const revokedAddress = `revoked-${randomBytes(5).toString('hex')}@revoke-labs.example`;
    const created = (await (
      await invite(org, founder.orgToken, revokedAddress)
    ).json()) as OrganizationInvitation;
    const { link: revokedLink } = await invitationLink(revokedAddress);
    const revoked = await api(`/api/organizations/${org}/invitations/${created.invitationId}`, {
      method: 'DELETE',
      token: founder.orgToken,
    });
    expect(revoked.status).toBe(200);
    expect(
      (await management('GET', `/organizations/${org}/invitations/${created.invitationId}`)).status,
    ).toBe(404);
    expect((await accept(revokedLink, revokedAddress, 'Never-Used-1')).error).toBe('invalid_request');
    const twice = await api(`/api/organizations/${org}/invitations/${created.invitationId}`, {
      method: 'DELETE',
      token: founder.orgToken,
    });
    expect((await problemOf(twice)).type).toBe(problemTypes.invitationNotFound);

    const resentAddress = `resent-${randomBytes(5).toString('hex')}@revoke-labs.example`;
    const original = (await (
      await invite(org, founder.orgToken, resentAddress)
    ).json()) as OrganizationInvitation;
    const { link: oldLink } = await invitationLink(resentAddress);
    const resent = await api(`/api/organizations/${org}/invitations/${original.invitationId}/resend`, {
      method: 'POST',
      token: founder.orgToken,
    });
    expect(resent.status).toBe(201);
    const replacement = (await resent.json()) as OrganizationInvitation;
    expect(replacement.invitationId).not.toBe(original.invitationId);
    expect((await accept(oldLink, resentAddress, 'Never-Used-2')).error).toBe('invalid_request');
    await expect
      .poll(async () => (await invitationLink(resentAddress)).link.searchParams.get('invitation'))
      .not.toBe(oldLink.searchParams.get('invitation'));
    const listed = (await (await team(org, founder.orgToken)).json()) as OrganizationTeamResponse;
    expect(listed.invitations.map((item) => item.invitationId)).toEqual([replacement.invitationId]);
  });
});
