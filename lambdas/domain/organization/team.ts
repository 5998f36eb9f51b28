import type { KycStatus } from '#contracts/kyc.ts';
import type { OrganizationRole } from '#contracts/organization.ts';
import type { StoredAuditEntry } from '../admin-audit/trail.ts';
import type { OrganizationRecord } from '../ports.ts';

// An organization's team as the product holds it (ADR 0084), in the organization's partition of
// the submissions table beside its record: one item per member and one per invited address. The
// product's records, not the token's claims, say who is a member and with which role: a token is
// up to an hour old, and a removal must count at once. Auth0 holds the same memberships, roles and
// invitations for sign-in; the team's use cases change both, Auth0 first.

/** How long an invitation's link works: Auth0's default and the issue's "valid 7 days". */
export const invitationTtlSeconds = 7 * 24 * 60 * 60;

/** How long a revoked, accepted or expired invitation's item is kept before TTL removes it. */
export const invitationRecordRetentionSeconds = 30 * 24 * 60 * 60;

export interface TeamMemberRecord {
  userId: string;
  /** Normalised: the byEmail index finds it, so an erasure of the address deletes it. */
  email: string;
  role: OrganizationRole;
  /** As the member's token said when they joined (an accepted invitation proves the address). */
  emailVerified: boolean;
  joinedAt: string;
  status: 'active' | 'removed';
  removedAt?: string;
  removedBy?: string;
}

export type InvitationStatus = 'pending' | 'accepted' | 'revoked';

export interface TeamInvitationRecord {
  /** Auth0's id (`uinv_…`) of the address's latest invitation. */
  invitationId: string;
  /** Normalised; one item per address in an organization. */
  email: string;
  role: OrganizationRole;
  invitedBy: string;
  invitedAt: string;
  expiresAt: string;
  status: InvitationStatus;
  /** When it was accepted or revoked. */
  closedAt?: string;
}

/** Everything the organization's partition holds, read in one Query. */
export interface TeamSnapshot {
  organization: OrganizationRecord;
  /** The member items, removed ones too (the registrant has one only once changed). */
  memberRecords: TeamMemberRecord[];
  invitations: TeamInvitationRecord[];
}

/**
 * The members: the member items still active, and the registrant while no item of theirs says
 * otherwise. Registration makes the responsible person the organization's first `org_admin` at
 * Auth0 (ADR 0083) and writes no member item; the first change of their membership writes one.
 * They set their password through a ticket that marks the address verified, so a registrant who
 * could ever sign in has a verified address.
 */
export function activeMembers(snapshot: TeamSnapshot): TeamMemberRecord[] {
  const { organization, memberRecords } = snapshot;
  const members = memberRecords.filter((member) => member.status === 'active');
  const registrant = organization.registeredBy;
  if (registrant && !memberRecords.some((member) => member.userId === registrant)) {
    members.unshift({
      userId: registrant,
      email: organization.email,
      role: 'org_admin',
      emailVerified: true,
      joinedAt: organization.createdAt,
      status: 'active',
    });
  }
  return members;
}

/** The person's membership: active, removed, or none. */
export function membershipOf(
  snapshot: TeamSnapshot,
  userId: string,
): { kind: 'active'; member: TeamMemberRecord } | { kind: 'removed' } | { kind: 'none' } {
  const active = activeMembers(snapshot).find((member) => member.userId === userId);
  if (active) return { kind: 'active', member: active };
  return snapshot.memberRecords.some((member) => member.userId === userId)
    ? { kind: 'removed' }
    : { kind: 'none' };
}

/** An invitation that still waits for its invitee: pending and not past its expiry. */
export function isOpen(invitation: TeamInvitationRecord, now: Date): boolean {
  return invitation.status === 'pending' && Date.parse(invitation.expiresAt) > now.getTime();
}

/** What the team page shows of one member. */
export interface TeamMemberView {
  member: TeamMemberRecord;
  kycStatus: KycStatus;
}

/** The team's store (lambdas/adapters/dynamodb-organization-teams.ts). */
export interface OrganizationTeams {
  /** The organization's record, members and invitations (strongly consistent); undefined if none. */
  load(organizationId: string): Promise<TeamSnapshot | undefined>;
  /**
   * The invitation item for its address, replacing `expected` (the item's invitation id as read,
   * or null when the address had none), with its trail entry, in one transaction: 'conflict' when
   * the item changed since it was read or another append took the trail's sequence.
   */
  saveInvitation(input: {
    organizationId: string;
    invitation: TeamInvitationRecord;
    expected: { invitationId: string | null };
    audit: StoredAuditEntry;
  }): Promise<'saved' | 'conflict'>;
  /**
   * The invitee's membership: the invitation marked accepted, the member item (new, or replacing a
   * removed one), the person's profile pointed at the organization, and the trail entry.
   * 'other-organization': the person's profile belongs to another organization they were not
   * removed from (one account, one organization).
   */
  acceptInvitation(input: {
    organization: OrganizationRecord;
    invitation: TeamInvitationRecord;
    member: TeamMemberRecord;
    name: string;
    audit: StoredAuditEntry;
  }): Promise<'saved' | 'conflict' | 'other-organization'>;
  /**
   * A member item written as changed (a role, or a removal) with the person's profile (the role
   * GET /api/me answers, or the removal that ends their session) and the trail entry. `expected`
   * is the member item's role and status as read (null: the registrant, who had none).
   */
  saveMember(input: {
    organizationId: string;
    member: TeamMemberRecord;
    expected: { role: OrganizationRole; status: 'active' } | null;
    audit: StoredAuditEntry;
  }): Promise<'saved' | 'conflict'>;
  /** The members' KYC statuses ('not_started' for one with no state). */
  kycStatuses(userIds: readonly string[]): Promise<Map<string, KycStatus>>;
}
