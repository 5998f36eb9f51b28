import { randomUUID } from 'node:crypto';
import type { OrganizationRole, OrganizationType } from '#contracts/organization.ts';
import {
  type ErrorMessage,
  errorMessages,
  messageTemplates,
  type WaitUnit,
} from '#contracts/problem-messages.ts';
import {
  type AdminAuditLog,
  type AuditDetails,
  chainEntry,
  type StoredAuditEntry,
} from '../admin-audit/trail.ts';
import { type Caller, requireOrganization } from '../caller.ts';
import { recipientKey } from '../emails/recipient-limit.ts';
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
} from '../errors.ts';
import { ConcurrentChangeError } from '../kyc/errors.ts';
import type { Clock, KycStateReader, OrganizationTeamDirectory, RateLimiter } from '../ports.ts';
import { spendSignedInWrite } from '../signed-in-limits.ts';
import { normaliseEmail } from '../submissions/normalise.ts';
import {
  activeMembers,
  invitationTtlSeconds,
  isOpen,
  membershipOf,
  type OrganizationTeams,
  type TeamInvitationRecord,
  type TeamMemberRecord,
  type TeamMemberView,
  type TeamSnapshot,
} from './team.ts';

// What an organization's `org_admin` does on the team page, and the invitee's joining (ADR 0084).
// Each action: the token's `org_id` checked before anything is read (ADR 0083); the organization's
// partition read (one Query); the caller's membership and role checked there, since a token's
// claims are up to an hour old; Auth0 changed (the directory), then the product's records and the
// admin-trail entry in one transaction. A transaction lost to a concurrent change is tried again
// from a fresh read, which may now refuse (another admin revoked it first).

/** Rounds lost to a concurrent change of the team or to another append to the trail. */
const maxRounds = 5;

/** Per mailbox, across organizations, like the other emails a person did not ask for (ADR 0072). */
export const invitationRecipientLimit = { perRecipient: 3, windowSeconds: 24 * 60 * 60 } as const;

export interface TeamDeps {
  teams: OrganizationTeams;
  audit: Pick<AdminAuditLog, 'head'>;
  clock: Clock;
  newId?: () => string;
}

export interface InvitationDeps extends TeamDeps {
  directory: OrganizationTeamDirectory;
  kyc: KycStateReader;
  limiter: RateLimiter;
}

/**
 * The inviter as Auth0's email names them ("<name> has invited you to join <organization>"): the
 * name of their account (the registrant's is the responsible person's name), else their address.
 * An approved admin's own words, in an email to a colleague their organization vouches for.
 */
function inviterName(caller: Caller): string {
  return caller.claims.name?.trim() || caller.claims.email?.trim() || 'A colleague';
}

export interface TeamRequest {
  caller: Caller;
  organizationId: string;
  requestId: string | null;
}

/**
 * The organization's partition, read after the token's `org_id` is checked (and that the token holds
 * a role in it, but for joining: the invitation gives the joining person theirs, and the records
 * decide, not the token's `org_roles`).
 */
async function loadTeam(
  teams: OrganizationTeams,
  request: TeamRequest,
  tokenRole: 'required' | 'any' = 'required',
): Promise<TeamSnapshot> {
  if (tokenRole === 'required') requireOrganization(request.caller, request.organizationId);
  else if (request.caller.organization?.id !== request.organizationId) throw new OrganizationMismatchError();
  const snapshot = await teams.load(request.organizationId);
  if (!snapshot) throw new OrganizationNotFoundError();
  return snapshot;
}

/** The caller's own membership, which must be active, and with `org_admin` for the team's changes. */
function requireMember(snapshot: TeamSnapshot, caller: Caller, role?: OrganizationRole): TeamMemberRecord {
  const membership = membershipOf(snapshot, caller.userId);
  if (membership.kind === 'removed') throw new OrganizationMembershipEndedError();
  if (membership.kind === 'none') throw new OrganizationRoleRequiredError();
  if (role && membership.member.role !== role) throw new OrganizationRoleRequiredError();
  return membership.member;
}

function entry(
  deps: TeamDeps,
  facts: {
    caller: Caller;
    action: StoredAuditEntry['action'];
    targetType: 'organization_member' | 'organization_invitation';
    targetId: string;
    details: AuditDetails;
    requestId: string | null;
  },
) {
  return async (): Promise<StoredAuditEntry> =>
    chainEntry(
      {
        actorType: 'member',
        actorId: facts.caller.userId,
        action: facts.action,
        targetType: facts.targetType,
        targetId: facts.targetId,
        reasonCode: null,
        reason: null,
        details: facts.details,
        requestId: facts.requestId,
      },
      await deps.audit.head(),
      { entryId: (deps.newId ?? randomUUID)(), recordedAt: deps.clock.now() },
    );
}

type Round<T> = { saved: true; value: T } | { saved: false };
const done = <T>(value: T): Round<T> => ({ saved: true, value });
const again: Round<never> = { saved: false };

/** Runs `round` until it saves, at most `maxRounds` times; each round reads afresh. */
async function inRounds<T>(round: () => Promise<Round<T>>): Promise<T> {
  for (let attempt = 1; attempt <= maxRounds; attempt += 1) {
    const result = await round();
    if (result.saved) return result.value;
  }
  throw new ConcurrentChangeError();
}

export interface TeamView {
  members: TeamMemberView[];
  invitations: TeamInvitationRecord[];
}

/** The team page's list: active members with their KYC status, and invitations still pending. */
export function listTeam(deps: Pick<TeamDeps, 'teams'>) {
  return async (request: TeamRequest): Promise<TeamView> => {
    const snapshot = await loadTeam(deps.teams, request);
    requireMember(snapshot, request.caller, 'org_admin');
    const members = activeMembers(snapshot);
    const statuses = await deps.teams.kycStatuses(members.map((member) => member.userId));
    return {
      members: members.map((member) => ({ member, kycStatus: statuses.get(member.userId) ?? 'not_started' })),
      invitations: snapshot.invitations.filter((invitation) => invitation.status === 'pending'),
    };
  };
}

/** Approved admins only invite: the organization vouches for its colleagues through them. */
async function requireApprovedAdmin(deps: InvitationDeps, snapshot: TeamSnapshot, caller: Caller) {
  requireMember(snapshot, caller, 'org_admin');
  const state = await deps.kyc.getState(caller.userId);
  if (state?.status !== 'approved') throw new OrganizationApprovalRequiredError();
}

/** A wait in minutes up to two hours, then in hours. */
function waitOf(seconds: number): [amount: number, unit: WaitUnit] {
  return seconds < 2 * 3600
    ? [Math.max(1, Math.ceil(seconds / 60)), 'minutes']
    : [Math.ceil(seconds / 3600), 'hours'];
}

/**
 * One more invitation email to this mailbox: the inviter's daily budget, then the recipient's
 * (three a day, whoever invites), spent before Auth0 sends anything.
 */
async function spendInvitationEmail(
  deps: InvitationDeps,
  caller: Caller,
  email: string,
): Promise<() => Promise<void>> {
  await spendSignedInWrite(deps.limiter, 'organization-invitation', caller.userId);
  const recipient = recipientKey(email);
  const { perRecipient, windowSeconds } = invitationRecipientLimit;
  const result = await deps.limiter.acquire(
    'organization-invitation-email',
    recipient,
    windowSeconds,
    perRecipient,
  );
  if (!result.allowed) {
    throw new RateLimitedError(
      'organization-invitation-email',
      result.retryAfterSeconds,
      messageTemplates.invitationsPerRecipient(perRecipient, ...waitOf(result.retryAfterSeconds)),
    );
  }
  // Both given back when Auth0 sent nothing: the admin is not charged for the provider's failure.
  return async () => {
    await Promise.all([
      deps.limiter.release('organization-invitation-email', recipient),
      deps.limiter.release('organization-invitation', caller.userId),
    ]).catch(() => undefined);
  };
}

/**
 * An Auth0 invitation (which sends its email), then the product's record of it with the trail
 * entry. If the record cannot be saved because the address got another invitation meanwhile, the
 * new Auth0 invitation is deleted again and the answer is 409.
 */
async function issueInvitation(
  deps: InvitationDeps,
  request: TeamRequest,
  input: {
    email: string;
    role: OrganizationRole;
    organizationType: OrganizationType;
    /** The address's invitation item as read (a closed or expired one), which the new one replaces. */
    previousId: string | null;
    /** A resend: the pending invitation whose Auth0 invitation is deleted first. */
    replacing: TeamInvitationRecord | undefined;
  },
): Promise<TeamInvitationRecord> {
  const { caller, organizationId } = request;
  const release = await spendInvitationEmail(deps, caller, input.email);
  let created: Awaited<ReturnType<OrganizationTeamDirectory['createInvitation']>>;
  try {
    if (input.replacing) await deps.directory.deleteInvitation(organizationId, input.replacing.invitationId);
    created = await deps.directory.createInvitation({
      organizationId,
      organizationType: input.organizationType,
      inviterName: inviterName(caller),
      email: input.email,
      role: input.role,
      ttlSeconds: invitationTtlSeconds,
    });
  } catch (error) {
    await release();
    throw error;
  }
  const invitation: TeamInvitationRecord = {
    invitationId: created.invitationId,
    email: input.email,
    role: input.role,
    invitedBy: caller.userId,
    invitedAt: created.createdAt,
    expiresAt: created.expiresAt,
    status: 'pending',
  };
  let expected = { invitationId: input.previousId };
  try {
    return await inRounds(async () => {
      const audit = await entry(deps, {
        caller,
        action: input.replacing ? 'invitation_resent' : 'member_invited',
        targetType: 'organization_invitation',
        targetId: invitation.invitationId,
        details: {
          organizationId,
          role: input.role,
          recipient: recipientKey(input.email),
          expiresAt: invitation.expiresAt,
          ...(input.replacing ? { previousInvitationId: input.replacing.invitationId } : {}),
        },
        requestId: request.requestId,
      })();
      const saved = await deps.teams.saveInvitation({ organizationId, invitation, expected, audit });
      if (saved === 'saved') return done(invitation);
      // Read again: another admin may have invited, resent or revoked for this address meanwhile.
      const snapshot = await loadTeam(deps.teams, request);
      requireMember(snapshot, caller, 'org_admin');
      const current = snapshot.invitations.find((item) => item.email === input.email);
      if ((current?.invitationId ?? null) !== expected.invitationId) {
        // The invitation being resent was revoked, accepted or resent meanwhile: it is gone.
        if (input.replacing) throw new InvitationNotFoundError();
        if (current && isOpen(current, deps.clock.now())) throw new InvitationPendingError();
        expected = { invitationId: current?.invitationId ?? null };
      }
      return again;
    });
  } catch (error) {
    // The product holds no record of it: its link must not work either.
    await deps.directory.deleteInvitation(organizationId, invitation.invitationId).catch(() => undefined);
    throw error;
  }
}

/** An approved `org_admin` invites a colleague by business address (the body's rule). */
export function inviteMember(deps: InvitationDeps) {
  return async (
    request: TeamRequest & { email: string; role: OrganizationRole },
  ): Promise<TeamInvitationRecord> => {
    const email = normaliseEmail(request.email);
    const snapshot = await loadTeam(deps.teams, request);
    await requireApprovedAdmin(deps, snapshot, request.caller);
    if (activeMembers(snapshot).some((member) => member.email === email)) throw new AlreadyMemberError();
    const existing = snapshot.invitations.find((invitation) => invitation.email === email);
    if (existing && isOpen(existing, deps.clock.now())) throw new InvitationPendingError();
    return issueInvitation(deps, request, {
      email,
      role: request.role,
      organizationType: snapshot.organization.organizationType,
      previousId: existing?.invitationId ?? null,
      replacing: undefined,
    });
  };
}

/** A new link in place of a pending (or expired) invitation, valid seven days from now. */
export function resendInvitation(deps: InvitationDeps) {
  return async (request: TeamRequest & { invitationId: string }): Promise<TeamInvitationRecord> => {
    const snapshot = await loadTeam(deps.teams, request);
    await requireApprovedAdmin(deps, snapshot, request.caller);
    const invitation = snapshot.invitations.find(
      (item) => item.invitationId === request.invitationId && item.status === 'pending',
    );
    if (!invitation) throw new InvitationNotFoundError();
    return issueInvitation(deps, request, {
      email: invitation.email,
      role: invitation.role,
      organizationType: snapshot.organization.organizationType,
      previousId: invitation.invitationId,
      replacing: invitation,
    });
  };
}

/** Revoked: Auth0's invitation deleted (its link stops working), the record marked revoked. */
export function revokeInvitation(deps: TeamDeps & { directory: OrganizationTeamDirectory }) {
  return async (request: TeamRequest & { invitationId: string }): Promise<void> => {
    let deleted = false;
    await inRounds(async () => {
      const snapshot = await loadTeam(deps.teams, request);
      requireMember(snapshot, request.caller, 'org_admin');
      const invitation = snapshot.invitations.find(
        (item) => item.invitationId === request.invitationId && item.status === 'pending',
      );
      if (!invitation) throw new InvitationNotFoundError();
      if (!deleted) {
        await deps.directory.deleteInvitation(request.organizationId, invitation.invitationId);
        deleted = true;
      }
      const audit = await entry(deps, {
        caller: request.caller,
        action: 'invitation_revoked',
        targetType: 'organization_invitation',
        targetId: invitation.invitationId,
        details: {
          organizationId: request.organizationId,
          role: invitation.role,
          recipient: recipientKey(invitation.email),
        },
        requestId: request.requestId,
      })();
      const saved = await deps.teams.saveInvitation({
        organizationId: request.organizationId,
        invitation: { ...invitation, status: 'revoked', closedAt: deps.clock.now().toISOString() },
        expected: { invitationId: invitation.invitationId },
        audit,
      });
      return saved === 'saved' ? done(undefined) : again;
    });
  };
}

/** Another admin must remain: the organization is never left without one. */
function requireAnotherAdmin(snapshot: TeamSnapshot, userId: string, message?: ErrorMessage) {
  const others = activeMembers(snapshot).filter(
    (member) => member.role === 'org_admin' && member.userId !== userId,
  );
  if (others.length === 0) throw new LastOrganizationAdminError(message);
}

function expectedOf(snapshot: TeamSnapshot, member: TeamMemberRecord) {
  return snapshot.memberRecords.some((record) => record.userId === member.userId)
    ? ({ role: member.role, status: 'active' } as const)
    : null;
}

/** An `org_admin` changes a member's role (Auth0's member roles, then the records). */
export function changeMemberRole(deps: TeamDeps & { directory: OrganizationTeamDirectory }) {
  return async (
    request: TeamRequest & { userId: string; role: OrganizationRole },
  ): Promise<TeamMemberView> => {
    let applied = false;
    return inRounds(async () => {
      const snapshot = await loadTeam(deps.teams, request);
      requireMember(snapshot, request.caller, 'org_admin');
      const membership = membershipOf(snapshot, request.userId);
      if (membership.kind !== 'active') throw new MemberNotFoundError();
      const member = membership.member;
      const statuses = await deps.teams.kycStatuses([member.userId]);
      const view = (record: TeamMemberRecord) => ({
        member: record,
        kycStatus: statuses.get(record.userId) ?? 'not_started',
      });
      if (member.role === request.role && !applied) return done(view(member));
      if (request.role !== 'org_admin') requireAnotherAdmin(snapshot, member.userId);
      if (!applied) {
        await deps.directory.setMemberRole(request.organizationId, member.userId, request.role);
        applied = true;
      }
      const changed: TeamMemberRecord = { ...member, role: request.role };
      const audit = await entry(deps, {
        caller: request.caller,
        action: 'member_role_changed',
        targetType: 'organization_member',
        targetId: member.userId,
        details: { organizationId: request.organizationId, from: member.role, to: request.role },
        requestId: request.requestId,
      })();
      const saved = await deps.teams.saveMember({
        organizationId: request.organizationId,
        member: changed,
        expected: expectedOf(snapshot, member),
        audit,
      });
      return saved === 'saved' ? done(view(changed)) : again;
    });
  };
}

/**
 * An `org_admin` removes a member: Auth0's membership ends (no more sign-in through the
 * organization), the member item and the person's profile are marked, so GET /api/me ends their
 * session at its next call (ADR 0084). Their account, KYC state and consent records stay.
 */
export function removeMember(deps: TeamDeps & { directory: OrganizationTeamDirectory }) {
  return async (request: TeamRequest & { userId: string }): Promise<void> => {
    let applied = false;
    await inRounds(async () => {
      const snapshot = await loadTeam(deps.teams, request);
      requireMember(snapshot, request.caller, 'org_admin');
      const membership = membershipOf(snapshot, request.userId);
      if (membership.kind !== 'active') throw new MemberNotFoundError();
      const member = membership.member;
      if (member.userId === request.caller.userId) {
        throw new LastOrganizationAdminError(errorMessages.cannotRemoveYourself);
      }
      if (member.role === 'org_admin') requireAnotherAdmin(snapshot, member.userId);
      if (!applied) {
        await deps.directory.removeMember(request.organizationId, member.userId);
        applied = true;
      }
      const at = deps.clock.now().toISOString();
      const audit = await entry(deps, {
        caller: request.caller,
        action: 'member_removed',
        targetType: 'organization_member',
        targetId: member.userId,
        details: { organizationId: request.organizationId, role: member.role },
        requestId: request.requestId,
      })();
      const saved = await deps.teams.saveMember({
        organizationId: request.organizationId,
        member: { ...member, status: 'removed', removedAt: at, removedBy: request.caller.userId },
        expected: expectedOf(snapshot, member),
        audit,
      });
      return saved === 'saved' ? done(undefined) : again;
    });
  };
}

/**
 * The invitee, signed in through the organization after accepting (Auth0 made them a member with
 * the invitation's role): the pending invitation for their verified address becomes their
 * membership and profile. Calling it again as a member answers the same.
 */
export function joinOrganization(deps: TeamDeps) {
  return async (request: TeamRequest): Promise<{ role: OrganizationRole }> => {
    const { caller } = request;
    if (!caller.emailVerified) throw new EmailNotVerifiedError();
    const email = normaliseEmail(caller.claims.email ?? '');
    return inRounds(async () => {
      const snapshot = await loadTeam(deps.teams, request, 'any');
      const membership = membershipOf(snapshot, caller.userId);
      const invitation = snapshot.invitations.find(
        (item) => item.email === email && item.status === 'pending',
      );
      if (membership.kind === 'active' && !invitation) return done({ role: membership.member.role });
      if (!invitation || email === '') {
        throw new InvitationNotFoundError(errorMessages.noInvitationForAddress);
      }
      const at = deps.clock.now().toISOString();
      const member: TeamMemberRecord = {
        userId: caller.userId,
        email,
        role: invitation.role,
        emailVerified: caller.emailVerified,
        joinedAt: at,
        status: 'active',
      };
      const audit = await entry(deps, {
        caller,
        action: 'member_joined',
        targetType: 'organization_member',
        targetId: caller.userId,
        details: {
          organizationId: request.organizationId,
          role: invitation.role,
          invitationId: invitation.invitationId,
        },
        requestId: request.requestId,
      })();
      const saved = await deps.teams.acceptInvitation({
        organization: snapshot.organization,
        invitation: { ...invitation, status: 'accepted', closedAt: at },
        member,
        name: caller.claims.name ?? '',
        audit,
      });
      if (saved === 'other-organization') {
        throw new AlreadyMemberError(errorMessages.memberOfAnotherOrganization);
      }
      return saved === 'saved' ? done({ role: invitation.role }) : again;
    });
  };
}
