import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRole } from '#contracts/organization.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { DynamoDbKycStateReader, kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbOrganizationTeams } from '#lambdas/adapters/dynamodb-organization-teams.ts';
import { DynamoDbOrganizations } from '#lambdas/adapters/dynamodb-organizations.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbRegistrationStore } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { DynamoDbUserProfiles, profileKey } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { getMe } from '#lambdas/domain/account/get-me.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import { verifyChain } from '#lambdas/domain/consent/hash-chain.ts';
import {
  AlreadyMemberError,
  EmailNotVerifiedError,
  InvitationNotFoundError,
  InvitationPendingError,
  LastOrganizationAdminError,
  MemberNotFoundError,
  OrganizationApprovalRequiredError,
  OrganizationMembershipEndedError,
  OrganizationMismatchError,
  OrganizationNotFoundError,
  OrganizationRoleRequiredError,
  RateLimitedError,
} from '#lambdas/domain/errors.ts';
import {
  changeMemberRole,
  inviteMember,
  joinOrganization,
  listTeam,
  removeMember,
  resendInvitation,
  revokeInvitation,
} from '#lambdas/domain/organization/team-actions.ts';
import type { OrganizationTeamDirectory } from '#lambdas/domain/ports.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { createTables, localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The team's use cases (ADR 0084) on DynamoDB Local with the real store, trail, limiter and
// profiles. Auth0 is a recording fake here (the stack tests run the local identity provider):
// what matters is what the product holds, what the trail says, and what is refused.

const ORG = 'org_helix0000000001';
const FOUNDER = 'auth0|founder';
const INVITEE = 'auth0|invitee';

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let run = 0;

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'team-' });
  client = localDocumentClient(dynamodb.endpoint);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

class FakeDirectory implements OrganizationTeamDirectory {
  calls: string[] = [];
  fail: Error | undefined;
  /** Holds each create until this many have arrived: both invitations pass their checks first. */
  together = 1;
  #waiting: (() => void)[] = [];
  #next = 0;
  async createInvitation(input: Parameters<OrganizationTeamDirectory['createInvitation']>[0]) {
    this.calls.push(`create ${input.organizationId} ${input.email} ${input.role} ${input.organizationType}`);
    if (this.fail) throw this.fail;
    await new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      if (this.#waiting.length >= this.together) for (const go of this.#waiting.splice(0)) go();
    });
    const createdAt = clock.at.toISOString();
    return {
      invitationId: `uinv_${++this.#next}`,
      invitationUrl: `http://localhost/auth/login?invitation=t${this.#next}&organization=${ORG}`,
      createdAt,
      expiresAt: new Date(clock.at.getTime() + input.ttlSeconds * 1000).toISOString(),
    };
  }
  async deleteInvitation(organizationId: string, invitationId: string) {
    this.calls.push(`delete ${organizationId} ${invitationId}`);
  }
  async setMemberRole(organizationId: string, userId: string, role: OrganizationRole) {
    this.calls.push(`role ${organizationId} ${userId} ${role}`);
    if (this.fail) throw this.fail;
  }
  async removeMember(organizationId: string, userId: string) {
    this.calls.push(`remove ${organizationId} ${userId}`);
    if (this.fail) throw this.fail;
  }
}

const clock = { at: new Date('2026-11-27T09:00:00.000Z'), now: () => clock.at };

function caller(userId: string, overrides: Partial<Caller> = {}): Caller {
  return {
    userId,
    issuer: 'https://tenant.test/',
    role: 'user',
    emailVerified: true,
    claims: { email: `${userId.slice(6)}@helix.example`, name: userId.slice(6) },
    organization: { id: ORG, roles: ['org_member'] },
    ...overrides,
  };
}

let names: { submissions: string; kyc: string; audit: string; ledger: string };
let directory: FakeDirectory;

async function setup() {
  run += 1;
  names = {
    submissions: `submissions-${run}`,
    kyc: `kyc-${run}`,
    audit: `audit-${run}`,
    ledger: `ledger-${run}`,
  };
  await createTables(dynamodb.endpoint, {
    submissions: names.submissions,
    kycState: names.kyc,
    adminAuditLog: names.audit,
  });
  clock.at = new Date('2026-11-27T09:00:00.000Z');
  directory = new FakeDirectory();
  await new DynamoDbOrganizations(client, names.submissions).saveOnce({
    organizationId: ORG,
    displayName: 'Helix Labs',
    organizationType: 'defense',
    registeredBy: FOUNDER,
    email: 'founder@helix.example',
    createdAt: '2026-11-20T09:00:00.000Z',
  });
  await approve(FOUNDER);
}

async function approve(userId: string) {
  await client.send(
    new PutCommand({
      TableName: names.kyc,
      Item: { ...kycStateKey(userId), userId, status: 'approved', version: 1 },
    }),
  );
}

function deps() {
  const teams = new DynamoDbOrganizationTeams(client, names.submissions, {
    kycTable: names.kyc,
    auditTable: names.audit,
  });
  const audit = new DynamoDbAdminAuditLog(client, names.audit, { clock });
  return {
    teams,
    audit,
    clock,
    directory,
    kyc: new DynamoDbKycStateReader(client, names.kyc),
    limiter: new DynamoDbRateLimiter(client, names.submissions, clock),
  };
}

const request = (who: Caller) => ({ caller: who, organizationId: ORG, requestId: 'req-1' });
const founder = () => caller(FOUNDER, { organization: { id: ORG, roles: ['org_admin'] } });

async function trail() {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: names.audit,
      KeyConditionExpression: '#c = :c',
      ExpressionAttributeNames: { '#c': 'chain' },
      ExpressionAttributeValues: { ':c': 'admin' },
      ConsistentRead: true,
    }),
  );
  return Items;
}

async function profile(userId: string) {
  const { Item } = await client.send(
    new GetCommand({ TableName: names.submissions, Key: profileKey(userId), ConsistentRead: true }),
  );
  return Item;
}

describe('the team of an organization', () => {
  beforeEach(setup, 30_000);

  it('lists the registrant as its first org_admin before anything was written for them', async () => {
    const team = await listTeam(deps())(request(founder()));
    expect(team.members).toEqual([
      {
        member: {
          userId: FOUNDER,
          email: 'founder@helix.example',
          role: 'org_admin',
          emailVerified: true,
          joinedAt: '2026-11-20T09:00:00.000Z',
          status: 'active',
        },
        kycStatus: 'approved',
      },
    ]);
    expect(team.invitations).toEqual([]);
  });

  it('refuses a token for another organization, a member without the admin role, and an unknown organization', async () => {
    const list = listTeam(deps());
    await expect(
      list(request(caller(FOUNDER, { organization: { id: 'org_other', roles: ['org_admin'] } }))),
    ).rejects.toThrow(OrganizationMismatchError);
    await expect(
      list(request(caller('auth0|stranger', { organization: { id: ORG, roles: ['org_admin'] } }))),
    ).rejects.toThrow(OrganizationRoleRequiredError);
    await expect(
      list({
        caller: caller(FOUNDER, { organization: { id: 'org_none', roles: ['org_admin'] } }),
        organizationId: 'org_none',
        requestId: null,
      }),
    ).rejects.toThrow(OrganizationNotFoundError);
  });

  it('invites, refuses a second invitation and a member, and records who did what without the address', async () => {
    const invite = inviteMember(deps());
    const invitation = await invite({
      ...request(founder()),
      email: ' Colleague@Helix.example ',
      role: 'org_member',
    });
    expect(invitation).toMatchObject({
      email: 'colleague@helix.example',
      role: 'org_member',
      status: 'pending',
      invitedBy: FOUNDER,
      expiresAt: '2026-12-04T09:00:00.000Z',
    });
    expect(directory.calls).toEqual([`create ${ORG} colleague@helix.example org_member defense`]);
    await expect(
      invite({ ...request(founder()), email: 'colleague@helix.example', role: 'org_admin' }),
    ).rejects.toThrow(InvitationPendingError);
    await expect(
      invite({ ...request(founder()), email: 'founder@helix.example', role: 'org_member' }),
    ).rejects.toThrow(AlreadyMemberError);
    expect(directory.calls).toHaveLength(1);

    const team = await listTeam(deps())(request(founder()));
    expect(team.invitations.map((item) => [item.email, item.status])).toEqual([
      ['colleague@helix.example', 'pending'],
    ]);
    const entries = await trail();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorType: 'member',
      actorId: FOUNDER,
      action: 'member_invited',
      targetType: 'organization_invitation',
      targetId: invitation.invitationId,
      details: { organizationId: ORG, role: 'org_member' },
    });
    expect(JSON.stringify(entries[0])).not.toContain('colleague@');
    expect(verifyChain(entries as never, { chainKey: 'chain' })).toMatchObject({ ok: true, records: 1 });
  });

  it('lets one of two concurrent invitations of an address stand, and deletes the other at Auth0', async () => {
    const d = deps();
    directory.together = 2;
    const results = await Promise.allSettled(
      ['Twin@helix.example', 'twin@helix.example'].map((email) =>
        inviteMember(d)({ ...request(founder()), email, role: 'org_member' }),
      ),
    );
    const kept = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(kept).toHaveLength(1);
    expect(refused).toEqual([expect.any(InvitationPendingError)]);
    const created = directory.calls.filter((call) => call.startsWith('create'));
    const deleted = directory.calls.filter((call) => call.startsWith('delete'));
    expect(created).toHaveLength(2);
    // The loser's link is deleted; the one the product records stays.
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).not.toContain(kept[0]?.invitationId);
    const team = await listTeam(d)(request(founder()));
    expect(team.invitations.map((item) => item.invitationId)).toEqual([kept[0]?.invitationId]);
    expect((await trail()).map((entry) => entry.action)).toEqual(['member_invited']);
  });

  it('lets only an approved org_admin invite', async () => {
    await client.send(
      new PutCommand({
        TableName: names.kyc,
        Item: { ...kycStateKey(FOUNDER), userId: FOUNDER, status: 'pending', version: 2 },
      }),
    );
    await expect(
      inviteMember(deps())({ ...request(founder()), email: 'x@helix.example', role: 'org_member' }),
    ).rejects.toThrow(OrganizationApprovalRequiredError);
    expect(directory.calls).toEqual([]);
  });

  it('sends one mailbox at most three invitations a day, however it is spelled', async () => {
    const d = deps();
    const invite = inviteMember(d);
    const revoke = revokeInvitation(d);
    for (const spelling of ['pat@helix.example', 'Pat+1@helix.example', 'pat+2@helix.example']) {
      const invitation = await invite({ ...request(founder()), email: spelling, role: 'org_member' });
      await revoke({ ...request(founder()), invitationId: invitation.invitationId });
    }
    await expect(
      invite({ ...request(founder()), email: 'pat+3@helix.example', role: 'org_member' }),
    ).rejects.toThrow(RateLimitedError);
    expect(directory.calls.filter((call) => call.startsWith('create'))).toHaveLength(3);
  });

  it('gives the budget back when Auth0 refuses the invitation', async () => {
    directory.fail = new Error('auth0 down');
    const invite = inviteMember(deps());
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await expect(
        invite({ ...request(founder()), email: 'sam@helix.example', role: 'org_member' }),
      ).rejects.toThrow('auth0 down');
    }
    directory.fail = undefined;
    await expect(
      invite({ ...request(founder()), email: 'sam@helix.example', role: 'org_member' }),
    ).resolves.toMatchObject({
      status: 'pending',
    });
  });

  it('resends with a new link and revokes, and a revoked invitation cannot be joined', async () => {
    const d = deps();
    const first = await inviteMember(d)({
      ...request(founder()),
      email: 'invitee@helix.example',
      role: 'org_member',
    });
    clock.at = new Date('2026-11-28T09:00:00.000Z');
    const second = await resendInvitation(d)({ ...request(founder()), invitationId: first.invitationId });
    expect(second.invitationId).not.toBe(first.invitationId);
    expect(second.expiresAt).toBe('2026-12-05T09:00:00.000Z');
    expect(directory.calls).toContain(`delete ${ORG} ${first.invitationId}`);
    await expect(
      resendInvitation(d)({ ...request(founder()), invitationId: first.invitationId }),
    ).rejects.toThrow(InvitationNotFoundError);

    await revokeInvitation(d)({ ...request(founder()), invitationId: second.invitationId });
    expect(directory.calls.at(-1)).toBe(`delete ${ORG} ${second.invitationId}`);
    expect((await listTeam(d)(request(founder()))).invitations).toEqual([]);
    await expect(joinOrganization(d)(request(caller(INVITEE)))).rejects.toThrow(InvitationNotFoundError);
    expect((await trail()).map((entry) => entry.action)).toEqual([
      'member_invited',
      'invitation_resent',
      'invitation_revoked',
    ]);
  });

  it('makes the invitee a member with their own profile when they join, once', async () => {
    const d = deps();
    await inviteMember(d)({ ...request(founder()), email: 'invitee@helix.example', role: 'org_member' });
    await expect(joinOrganization(d)(request(caller(INVITEE, { emailVerified: false })))).rejects.toThrow(
      EmailNotVerifiedError,
    );
    // A token with no organization role yet: the invitation gives the role, the records decide.
    await expect(
      joinOrganization(d)(request(caller(INVITEE, { organization: { id: ORG, roles: [] } }))),
    ).resolves.toEqual({ role: 'org_member' });
    await expect(joinOrganization(d)(request(caller(INVITEE)))).resolves.toEqual({ role: 'org_member' });
    expect((await trail()).filter((entry) => entry.action === 'member_joined')).toHaveLength(1);

    const team = await listTeam(d)(request(founder()));
    expect(team.members.map((view) => [view.member.userId, view.member.role, view.kycStatus])).toEqual([
      [FOUNDER, 'org_admin', 'approved'],
      [INVITEE, 'org_member', 'not_started'],
    ]);
    expect(team.invitations).toEqual([]);
    expect(await profile(INVITEE)).toMatchObject({
      email: 'invitee@helix.example',
      organizationId: ORG,
      organizationName: 'Helix Labs',
      organizationType: 'defense',
      organizationRole: 'org_member',
    });
    // Reviewers see the member's organization, and four-eyes its type (ADR 0080), from that profile.
    const registrations = await new DynamoDbRegistrationStore(client, names.submissions).getRegistrations([
      INVITEE,
      FOUNDER,
    ]);
    expect(registrations.get(INVITEE)).toMatchObject({
      organizationName: 'Helix Labs',
      organizationType: 'defense',
    });
    expect(registrations.has(FOUNDER)).toBe(false);
  });

  it('refuses to move an account that belongs to another organization', async () => {
    const d = deps();
    await client.send(
      new PutCommand({
        TableName: names.submissions,
        Item: {
          ...profileKey(INVITEE),
          kind: 'profile',
          email: 'invitee@helix.example',
          organizationId: 'org_elsewhere',
        },
      }),
    );
    await inviteMember(d)({ ...request(founder()), email: 'invitee@helix.example', role: 'org_member' });
    await expect(joinOrganization(d)(request(caller(INVITEE)))).rejects.toThrow(AlreadyMemberError);
    expect((await profile(INVITEE))?.organizationId).toBe('org_elsewhere');
  });

  it('changes roles but never leaves the organization without an admin', async () => {
    const d = deps();
    await inviteMember(d)({ ...request(founder()), email: 'invitee@helix.example', role: 'org_member' });
    await joinOrganization(d)(request(caller(INVITEE)));
    const change = changeMemberRole(d);
    await expect(change({ ...request(founder()), userId: FOUNDER, role: 'org_member' })).rejects.toThrow(
      LastOrganizationAdminError,
    );
    const promoted = await change({ ...request(founder()), userId: INVITEE, role: 'org_admin' });
    expect(promoted.member.role).toBe('org_admin');
    expect(directory.calls).toContain(`role ${ORG} ${INVITEE} org_admin`);
    expect((await profile(INVITEE))?.organizationRole).toBe('org_admin');
    // Now the registrant may step down: the invitee is an admin.
    await change({ ...request(founder()), userId: FOUNDER, role: 'org_member' });
    expect((await profile(FOUNDER))?.organizationRole).toBe('org_member');
    // The registrant's token still says org_admin; the product's record decides.
    await expect(listTeam(d)(request(founder()))).rejects.toThrow(OrganizationRoleRequiredError);
    await expect(
      change({ ...request(founder()), userId: 'auth0|nobody', role: 'org_admin' }),
    ).rejects.toThrow(OrganizationRoleRequiredError);
    const invitee = caller(INVITEE, { organization: { id: ORG, roles: ['org_member'] } });
    await expect(change({ ...request(invitee), userId: 'auth0|nobody', role: 'org_admin' })).rejects.toThrow(
      MemberNotFoundError,
    );
  });

  it('removes a member: their session ends at GET /api/me, their record stays, and they can be invited again', async () => {
    const d = deps();
    await inviteMember(d)({ ...request(founder()), email: 'invitee@helix.example', role: 'org_member' });
    await joinOrganization(d)(request(caller(INVITEE)));
    const remove = removeMember(d);
    await expect(remove({ ...request(founder()), userId: FOUNDER })).rejects.toThrow(
      LastOrganizationAdminError,
    );
    await remove({ ...request(founder()), userId: INVITEE });
    expect(directory.calls).toContain(`remove ${ORG} ${INVITEE}`);
    await expect(remove({ ...request(founder()), userId: INVITEE })).rejects.toThrow(MemberNotFoundError);

    const me = getMe({
      profiles: new DynamoDbUserProfiles(client, names.submissions),
      kyc: d.kyc,
      ledger: { listBySubject: async () => [] },
      deletions: { pendingById: async () => undefined, pendingOf: async () => undefined },
    });
    await expect(me(caller(INVITEE))).rejects.toThrow(OrganizationMembershipEndedError);
    await expect(
      listTeam(d)(request(caller(INVITEE, { organization: { id: ORG, roles: ['org_admin'] } }))),
    ).rejects.toThrow(OrganizationMembershipEndedError);
    expect((await listTeam(d)(request(founder()))).members.map((view) => view.member.userId)).toEqual([
      FOUNDER,
    ]);

    await inviteMember(d)({ ...request(founder()), email: 'invitee@helix.example', role: 'org_admin' });
    await expect(joinOrganization(d)(request(caller(INVITEE)))).resolves.toEqual({ role: 'org_admin' });
    await expect(me(caller(INVITEE))).resolves.toMatchObject({
      organizationId: ORG,
      organizationRole: 'org_admin',
    });
    expect((await trail()).map((entry) => entry.action)).toEqual([
      'member_invited',
      'member_joined',
      'member_removed',
      'member_invited',
      'member_joined',
    ]);
    expect(verifyChain((await trail()) as never, { chainKey: 'chain' })).toMatchObject({
      ok: true,
      records: 5,
    });
  });
});
