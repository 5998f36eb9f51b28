import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from './user-store.ts';

// Auth0 Organizations as the local identity provider keeps them (ADR 0081): organizations, the
// tenant's roles, memberships with their per-organization roles, invitations, and which
// organization each login's grant was made for. One JSON file in the provider's state directory,
// rewritten atomically after each change, like users.json (ADR 0039): a restart keeps them all.

/** The database connection's id, as `connection_id` names it in invitations. */
export const DATABASE_CONNECTION_ID = 'con_0000000000000001';

/** Invitations live 7 days unless `ttl_sec` says otherwise, and 30 days at most (Auth0). */
export const INVITATION_TTL_DEFAULT_SEC = 604_800;
export const INVITATION_TTL_MAX_SEC = 2_592_000;

export interface Organization {
  id: string;
  name: string;
  display_name?: string;
  branding?: { logo_url?: string; colors?: { primary?: string; page_background?: string } };
  metadata: Record<string, string>;
}

export interface Role {
  id: string;
  name: string;
  description: string;
}

export interface Membership {
  organization_id: string;
  user_id: string;
  /** Role ids, in the order they were assigned. */
  roles: string[];
}

export interface Invitation {
  id: string;
  organization_id: string;
  inviter: { name: string };
  invitee: { email: string };
  invitation_url: string;
  created_at: string;
  expires_at: string;
  client_id: string;
  connection_id: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  roles: string[];
  ticket_id: string;
}

interface OrganizationFile {
  organizations: Organization[];
  roles: Role[];
  memberships: Membership[];
  invitations: Invitation[];
  /** grant id → organization id: the organization a login was made for (tokens carry it). */
  grants: Record<string, string>;
}

export class OrganizationExistsError extends Error {}

const id = (prefix: string, bytes = 8) => `${prefix}_${randomBytes(bytes).toString('hex')}`;

export class OrganizationStore {
  readonly #file: string;
  #data: OrganizationFile;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.#file = join(dataDir, 'organizations.json');
    const empty: OrganizationFile = {
      organizations: [],
      roles: [],
      memberships: [],
      invitations: [],
      grants: {},
    };
    this.#data = existsSync(this.#file)
      ? { ...empty, ...(JSON.parse(readFileSync(this.#file, 'utf8')) as Partial<OrganizationFile>) }
      : empty;
  }

  #save(): void {
    writeJsonAtomic(this.#file, this.#data);
  }

  // Organizations.

  list(): Organization[] {
    return this.#data.organizations;
  }

  find(orgId: string): Organization | undefined {
    return this.#data.organizations.find((o) => o.id === orgId);
  }

  findByName(name: string): Organization | undefined {
    return this.#data.organizations.find((o) => o.name === name);
  }

  /** An `organization` parameter of `/authorize`: the organization's id, or its name. */
  findByIdOrName(value: string): Organization | undefined {
    return this.find(value) ?? this.findByName(value.toLowerCase());
  }

  create(input: Omit<Organization, 'id'>): Organization {
    if (this.findByName(input.name)) throw new OrganizationExistsError();
    const organization: Organization = { id: id('org', 8), ...input };
    this.#data.organizations.push(organization);
    this.#save();
    return organization;
  }

  update(orgId: string, change: (organization: Organization) => void): Organization | undefined {
    const organization = this.find(orgId);
    if (!organization) return undefined;
    change(organization);
    this.#save();
    return organization;
  }

  delete(orgId: string): void {
    const data = this.#data;
    data.organizations = data.organizations.filter((o) => o.id !== orgId);
    data.memberships = data.memberships.filter((m) => m.organization_id !== orgId);
    data.invitations = data.invitations.filter((i) => i.organization_id !== orgId);
    this.#save();
  }

  // Roles (the tenant's; assigned to a member within one organization).

  roles(): Role[] {
    return this.#data.roles;
  }

  role(roleId: string): Role | undefined {
    return this.#data.roles.find((r) => r.id === roleId);
  }

  roleByName(name: string): Role | undefined {
    return this.#data.roles.find((r) => r.name === name);
  }

  createRole(input: Omit<Role, 'id'>): Role {
    const role: Role = { id: id('rol', 8), ...input };
    this.#data.roles.push(role);
    this.#save();
    return role;
  }

  // Members.

  members(orgId: string): Membership[] {
    return this.#data.memberships.filter((m) => m.organization_id === orgId);
  }

  membership(orgId: string, userId: string): Membership | undefined {
    return this.#data.memberships.find((m) => m.organization_id === orgId && m.user_id === userId);
  }

  organizationsOf(userId: string): Organization[] {
    return this.#data.memberships
      .filter((m) => m.user_id === userId)
      .map((m) => this.find(m.organization_id))
      .filter((o): o is Organization => o !== undefined);
  }

  /** Adds each user not yet a member (an existing member stays as is). */
  addMembers(orgId: string, userIds: string[]): void {
    for (const userId of userIds) {
      if (!this.membership(orgId, userId)) {
        this.#data.memberships.push({ organization_id: orgId, user_id: userId, roles: [] });
      }
    }
    this.#save();
  }

  removeMembers(orgId: string, userIds: string[]): void {
    this.#data.memberships = this.#data.memberships.filter(
      (m) => m.organization_id !== orgId || !userIds.includes(m.user_id),
    );
    this.#save();
  }

  /** A deleted user leaves every organization. */
  removeUser(userId: string): void {
    this.#data.memberships = this.#data.memberships.filter((m) => m.user_id !== userId);
    this.#save();
  }

  assignRoles(orgId: string, userId: string, roleIds: string[]): void {
    const membership = this.membership(orgId, userId);
    if (!membership) return;
    for (const roleId of roleIds) if (!membership.roles.includes(roleId)) membership.roles.push(roleId);
    this.#save();
  }

  removeRoles(orgId: string, userId: string, roleIds: string[]): void {
    const membership = this.membership(orgId, userId);
    if (!membership) return;
    membership.roles = membership.roles.filter((roleId) => !roleIds.includes(roleId));
    this.#save();
  }

  // Invitations.

  invitations(orgId: string): Invitation[] {
    return this.#data.invitations.filter((i) => i.organization_id === orgId);
  }

  invitation(orgId: string, invitationId: string): Invitation | undefined {
    return this.#data.invitations.find((i) => i.organization_id === orgId && i.id === invitationId);
  }

  /** The invitation an `/authorize` request's `invitation` parameter (its ticket id) names. */
  invitationByTicket(ticketId: string): Invitation | undefined {
    return this.#data.invitations.find((i) => i.ticket_id === ticketId);
  }

  createInvitation(
    input: Omit<Invitation, 'id' | 'ticket_id' | 'invitation_url' | 'created_at' | 'expires_at'>,
    ttlSec: number,
    url: (ticketId: string) => string,
  ): Invitation {
    const now = Date.now();
    const ticketId = randomBytes(24).toString('base64url');
    const invitation: Invitation = {
      id: id('uinv', 8),
      ...input,
      invitation_url: url(ticketId),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + ttlSec * 1000).toISOString(),
      ticket_id: ticketId,
    };
    this.#data.invitations.push(invitation);
    this.#save();
    return invitation;
  }

  deleteInvitation(invitationId: string): void {
    this.#data.invitations = this.#data.invitations.filter((i) => i.id !== invitationId);
    this.#save();
  }

  // Logins.

  /** Records the organization a grant (one login's) was made for; `undefined` records none. */
  setGrantOrganization(grantId: string, orgId: string | undefined): void {
    if (orgId === undefined) {
      if (!(grantId in this.#data.grants)) return;
      delete this.#data.grants[grantId];
    } else {
      this.#data.grants[grantId] = orgId;
    }
    this.#save();
  }

  grantOrganization(grantId: string | undefined): Organization | undefined {
    if (!grantId) return undefined;
    const orgId = this.#data.grants[grantId];
    return orgId === undefined ? undefined : this.find(orgId);
  }
}
