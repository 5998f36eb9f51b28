import { type OrganizationRole, type OrganizationType, organizationRoles } from '#contracts/organization.ts';
import type { CallOptions, ManagementApi } from '#lambdas/adapters/auth0-management-api.ts';
import {
  CredentialedManagementApi,
  type RetryPolicy,
  statusOf,
  TenantRoleIds,
  withBoundedRetry,
} from '#lambdas/adapters/auth0-user-directory.ts';
import { requireEnv } from '#lambdas/config.ts';
import { MemberNotFoundError } from '#lambdas/domain/errors.ts';
import type { DirectoryInvitation, OrganizationTeamDirectory } from '#lambdas/domain/ports.ts';

// The team page's changes at Auth0 (ADR 0084) behind the `OrganizationTeamDirectory` port, with the
// `auth0OrganizationTeam` application's scopes only (lambdas/grants.ts). Unlike the other
// directories' callers (event targets, ADR 0059), these are API routes with an `org_admin` waiting
// and a 15 s function timeout: every port method has one budget for all its calls (requests and
// waits), and the tenant's 429 is waited out only within it.

/** One port method, all its calls: retried (408, 429, 5xx, timeouts where safe) within this. */
export const teamRetryPolicy: RetryPolicy = {
  maxAttempts: 3,
  maxElapsedMs: 8_000,
  requestTimeoutMs: 4_000,
  baseDelayMs: 250,
};

export class Auth0OrganizationTeamDirectory implements OrganizationTeamDirectory {
  readonly #roleIds: TenantRoleIds;

  constructor(
    private readonly client: ManagementApi,
    /** The web application's client id: the invitation's link signs in to it (`client_id`). */
    private readonly spaClientId: string,
    private readonly policy: RetryPolicy = teamRetryPolicy,
    /** Shared with another directory of the same client, if any: one lookup per container. */
    roleIds?: TenantRoleIds,
  ) {
    this.#roleIds = roleIds ?? new TenantRoleIds(client);
  }

  /**
   * One `POST /organizations/{id}/invitations`, plus one `GET /roles?name_filter=org_` per container.
   * A timeout is not retried: Auth0 may have created the invitation (and sent its email), and a
   * second POST would create another, valid for as long, that the product's record would not name,
   * so revoking the recorded one would leave the other's link working. The caller gets
   * `DirectoryUnavailableError` instead and the admin decides whether to try again. 408, 429 and
   * 5xx answers are retried (Auth0 did not create anything).
   */
  async createInvitation(input: {
    organizationId: string;
    organizationType: OrganizationType;
    inviterName: string;
    email: string;
    role: OrganizationRole;
    ttlSeconds: number;
  }): Promise<DirectoryInvitation> {
    const budget = this.#budget();
    const roleId = await this.#roleId(input.role, budget);
    const invitation = await budget.run(
      'organizations.createInvitation',
      (options) =>
        this.client.organizations.createInvitation(
          input.organizationId,
          {
            inviter: { name: input.inviterName },
            invitee: { email: input.email },
            client_id: this.spaClientId,
            // No `connection_id`: the invitee signs in with the web application's connections,
            // which are the database connection only (provisioning); Auth0's `con_…` id of it is
            // the tenant's, not something a function knows.
            ttl_sec: input.ttlSeconds,
            roles: [roleId],
            send_invitation_email: true,
            // What registration writes: Auth0 gives it to the user the invitation creates, and the
            // post-login Action lets in only accounts that carry it (ADR 0084).
            app_metadata: {
              role: 'user',
              kyc_status: 'not_started',
              organization_type: input.organizationType,
            },
          },
          options,
        ),
      { retryTimeouts: false },
    );
    return {
      invitationId: invitation.id,
      invitationUrl: invitation.invitation_url,
      createdAt: invitation.created_at,
      expiresAt: invitation.expires_at,
    };
  }

  /** One `DELETE /organizations/{id}/invitations/{invitation_id}`; a 404 means it is gone already. */
  async deleteInvitation(organizationId: string, invitationId: string): Promise<void> {
    await this.#delete(this.#budget(), 'organizations.deleteInvitation', (options) =>
      this.client.organizations.deleteInvitation(organizationId, invitationId, options),
    );
  }

  /**
   * `POST …/members/{user_id}/roles` with the new role, then `DELETE …/members/{user_id}/roles` with
   * the other organization role (one `GET /roles?name_filter=org_` per container finds both ids).
   * Adding first means a failure in between leaves the member with both roles, never with none; a
   * repeat (the admin's retry) finishes it, both calls being idempotent at Auth0. A 404 to the add
   * is a user who is not (or no longer) a member at Auth0: `MemberNotFoundError`.
   */
  async setMemberRole(organizationId: string, userId: string, role: OrganizationRole): Promise<void> {
    const budget = this.#budget();
    const roleId = await this.#roleId(role, budget);
    const others = await Promise.all(
      organizationRoles.filter((name) => name !== role).map((name) => this.#roleId(name, budget)),
    );
    try {
      await budget.run('organizations.addMemberRoles', (options) =>
        this.client.organizations.addMemberRoles(organizationId, userId, { roles: [roleId] }, options),
      );
    } catch (error) {
      if (statusOf(error) === 404) throw new MemberNotFoundError();
      throw error;
    }
    if (others.length === 0) return;
    await this.#delete(budget, 'organizations.deleteMemberRoles', (options) =>
      this.client.organizations.deleteMemberRoles(organizationId, userId, { roles: others }, options),
    );
  }

  /** One `DELETE /organizations/{id}/members`; a 404 means there is nothing left to remove. */
  async removeMember(organizationId: string, userId: string): Promise<void> {
    await this.#delete(this.#budget(), 'organizations.deleteMembers', (options) =>
      this.client.organizations.deleteMembers(organizationId, { members: [userId] }, options),
    );
  }

  /**
   * A role's id. Both organization roles are asked for together (`name_filter=org_`), so whichever
   * operation a container runs first, one lookup serves every later one.
   */
  async #roleId(role: OrganizationRole, budget: Budget): Promise<string> {
    const ids = await this.#roleIds.ids(organizationRoles, budget.remaining());
    const id = ids[organizationRoles.indexOf(role)];
    if (!id) throw new Error(`No id for the role ${role}`);
    return id;
  }

  /** Deletes are idempotent: timeouts are retried too, and a 404 counts as done. */
  async #delete(
    budget: Budget,
    operation: string,
    call: (options: Required<CallOptions>) => Promise<void>,
  ): Promise<void> {
    try {
      await budget.run(operation, call);
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  #budget(): Budget {
    return new Budget(this.policy);
  }
}

/** One port method's time: each of its calls may use what the earlier ones left. */
class Budget {
  readonly #deadline: number;

  constructor(private readonly policy: RetryPolicy) {
    this.#deadline = Date.now() + policy.maxElapsedMs;
  }

  /**
   * The policy with what is left of the time. Once it is spent, a call still gets its one attempt
   * (`withBoundedRetry` gives each at least 500 ms) but no retry.
   */
  remaining(): RetryPolicy {
    return { ...this.policy, maxElapsedMs: Math.max(0, this.#deadline - Date.now()) };
  }

  run<T>(
    operation: string,
    call: (options: Required<CallOptions>) => Promise<T>,
    options?: { retryTimeouts?: boolean },
  ): Promise<T> {
    return withBoundedRetry(operation, this.remaining(), call, options);
  }
}

let team: { client: CredentialedManagementApi; directory: Auth0OrganizationTeamDirectory } | undefined;

/**
 * The team page's directory, one per container (one Management API client, its cached token and
 * role ids), reading the `auth0OrganizationTeam` secret (its route's `secret(...)` grant) and
 * following its rotation like `getUserDirectory`. An unreadable or malformed secret, or a function
 * without `AUTH0_SPA_CLIENT_ID`, fails the call, and the next one tries again.
 */
export async function organizationTeamDirectory(): Promise<OrganizationTeamDirectory> {
  if (!team) {
    const spaClientId = requireEnv('auth0SpaClientId');
    const client = new CredentialedManagementApi('auth0OrganizationTeam');
    team = { client, directory: new Auth0OrganizationTeamDirectory(client, spaClientId) };
  }
  await team.client.current();
  return team.directory;
}
