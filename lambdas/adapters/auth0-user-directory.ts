import type { KycStatus, Role } from '#contracts/kyc.ts';
import { kycStatuses, roles } from '#contracts/kyc.ts';
import { type OrganizationRole, type OrganizationType, organizationTypes } from '#contracts/organization.ts';
import {
  type CallOptions,
  createManagementApi,
  type FlatMetadata,
  type ManagementApi,
  ManagementApiError,
  type ManagementOrganization,
  ManagementTimeoutError,
  type ManagementUser,
  parseM2mCredentials,
} from '#lambdas/adapters/auth0-management-api.ts';
import { getSecretVersion } from '#lambdas/adapters/secrets.ts';
import { optionalEnv, requireEnv } from '#lambdas/config.ts';
import { DirectoryUnavailableError } from '#lambdas/domain/errors.ts';
import {
  type AppMetadata,
  type DirectoryOrganization,
  type DirectoryUser,
  type OrganizationDirectory,
  OrganizationNameTakenError,
  UserAlreadyExistsError,
  type UserDirectory,
} from '#lambdas/domain/ports.ts';
import { passwordTicketTtlDays } from '#lambdas/domain/registration/ports.ts';
import type { Auth0M2mKey } from '#lambdas/grants.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetricBy } from '#lambdas/runtime/metrics.ts';
import { DATABASE_CONNECTION } from './auth0-database-connection.ts';

// The Auth0 Management API behind the `UserDirectory` port, and the one place Auth0 calls are
// retried (the client makes one attempt per call): 408/429/5xx and timeouts, waiting what
// `x-ratelimit-reset` / `Retry-After` ask, but only while the whole operation (requests and waits)
// stays inside `maxElapsedMs`: Auth0 may ask for a minute, which a 20-30 s Lambda cannot give.

export { DATABASE_CONNECTION };

export interface RetryPolicy {
  /** Attempts per operation, the first included. */
  maxAttempts: number;
  /** Wall-clock bound for one operation: requests plus waits. */
  maxElapsedMs: number;
  /** Per-request timeout (shortened to the remaining budget). */
  requestTimeoutMs: number;
  /** First backoff when the answer names no reset time; doubles per attempt. */
  baseDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  maxElapsedMs: 10_000,
  requestTimeoutMs: 5_000,
  baseDelayMs: 250,
};

/**
 * For the bus's targets, every caller of `getUserDirectory` (no API route calls Auth0, ADR 0059):
 * deferred work that waits for the tenant's quota inside the invocation rather than failing fast.
 * In AWS a failed invocation is retried only twice, a minute and two apart, while a spent Free
 * quota (2 requests/s) can stay spent for as long as the backlog lasts; the backlog itself waits
 * in Lambda's queue, held there by reserved concurrency. So a 429 is waited out, as often as the
 * tenant asks, for up to 15 s per operation (a sync's 30 s timeout holds one, a registration's
 * 60 s three); other failures still back off exponentially and give up within that time (ADR 0062).
 */
export const deferredWorkRetryPolicy: RetryPolicy = {
  maxAttempts: 40,
  maxElapsedMs: 15_000,
  requestTimeoutMs: 5_000,
  baseDelayMs: 250,
};

// The port's failure lives in the domain (the HTTP layer maps it); re-exported for the adapter's callers.
export { DirectoryUnavailableError };

export function statusOf(error: unknown): number | undefined {
  return error instanceof ManagementApiError ? error.status : undefined;
}

function isRetryable(error: unknown): boolean {
  if (error instanceof ManagementTimeoutError) return true;
  const status = statusOf(error);
  return status === 408 || status === 429 || (status !== undefined && status >= 500);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withBoundedRetry<T>(
  operation: string,
  policy: RetryPolicy,
  call: (options: Required<CallOptions>) => Promise<T>,
  { retryTimeouts = true }: { retryTimeouts?: boolean } = {},
): Promise<T> {
  const started = Date.now();
  let attempt = 0;
  for (;;) {
    attempt += 1;
    const remaining = policy.maxElapsedMs - (Date.now() - started);
    const timeoutMs = Math.max(500, Math.min(policy.requestTimeoutMs, remaining));
    try {
      return await call({ timeoutMs });
    } catch (error) {
      if (!isRetryable(error)) throw error;
      const status = statusOf(error);
      if (!retryTimeouts && error instanceof ManagementTimeoutError) {
        logger.warn('auth0 call failed', { operation, status, attempt, willRetry: false });
        throw new DirectoryUnavailableError(operation, status, attempt, { cause: error });
      }
      const requested = error instanceof ManagementApiError ? error.retryAfterMs : undefined;
      const backoff = policy.baseDelayMs * 2 ** (attempt - 1) * (1 + Math.random() * 0.2);
      const delay = requested ?? backoff;
      const left = policy.maxElapsedMs - (Date.now() - started);
      // Waiting past the budget only to fail later helps nobody: give up now, the caller (or
      // EventBridge) retries on its own schedule.
      const giveUp = attempt >= policy.maxAttempts || delay >= left;
      // One line per failed attempt, retried or final: the Auth0 429 alarm counts these.
      logger.warn('auth0 call failed', {
        operation,
        status,
        attempt,
        willRetry: !giveUp,
        ...(giveUp ? {} : { delayMs: Math.round(delay) }),
      });
      if (giveUp) throw new DirectoryUnavailableError(operation, status, attempt, { cause: error });
      await sleep(delay);
    }
  }
}

function pick<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

/** Reads only the product's flat keys from whatever the tenant stores. */
export function toAppMetadata(raw: unknown): AppMetadata {
  const source = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const metadata: AppMetadata = {};
  const role: Role | undefined = pick(roles, source.role);
  const organizationType: OrganizationType | undefined = pick(organizationTypes, source.organization_type);
  const kycStatus: KycStatus | undefined = pick(kycStatuses, source.kyc_status);
  if (role) metadata.role = role;
  if (organizationType) metadata.organization_type = organizationType;
  if (kycStatus) metadata.kyc_status = kycStatus;
  if (typeof source.kyc_updated_at === 'string') metadata.kyc_updated_at = source.kyc_updated_at;
  return metadata;
}

function toDirectoryUser(user: ManagementUser): DirectoryUser {
  if (!user.user_id) throw new Error('Auth0 returned a user without user_id');
  return {
    userId: user.user_id,
    email: user.email ?? '',
    emailVerified: user.email_verified === true,
    name: user.name ?? '',
    appMetadata: toAppMetadata(user.app_metadata),
  };
}

function toDirectoryOrganization(organization: ManagementOrganization): DirectoryOrganization {
  return { id: organization.id, name: organization.name, metadata: { ...(organization.metadata ?? {}) } };
}

type MetadataPatch = { [K in keyof AppMetadata]?: AppMetadata[K] | null };

/** Drops undefined keys and refuses nested values: Auth0 replaces nested objects wholesale. */
export function flatMetadataPatch(patch: MetadataPatch): FlatMetadata {
  const flat: FlatMetadata = {};
  for (const [key, value] of Object.entries(patch) as [string, unknown][]) {
    if (value === undefined) continue;
    if (value !== null && typeof value === 'object') {
      throw new Error(`app_metadata.${key} must be a flat value, not an object`);
    }
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw new Error(`app_metadata.${key} has an unsupported type`);
    }
    flat[key] = value as string | number | boolean | null;
  }
  return flat;
}

/** The longest start the names share ('' when none). */
function commonPrefix(names: readonly string[]): string {
  let prefix = names[0] ?? '';
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * The tenant roles' ids by name, for one Management API client (so one per container): provisioning
 * creates the organization roles and never renames them (infra/auth0/provision/desired.ts), so each
 * is looked up once (`GET /roles?name_filter=`, `read:roles`). The registration's and the team page's
 * directories share this one lookup. A failed lookup is not remembered: the next call asks again.
 */
export class TenantRoleIds {
  readonly #ids = new Map<string, Promise<string>>();

  constructor(private readonly client: ManagementApi) {}

  /**
   * The ids of `names`, in their order. The names not yet known are asked for in one call, by the
   * start they share (`org_` for `org_admin` and `org_member`), or one call each when they share none.
   */
  ids(names: readonly string[], policy: RetryPolicy): Promise<string[]> {
    const missing = [...new Set(names)].filter((name) => !this.#ids.has(name));
    const prefix = commonPrefix(missing);
    const lookups =
      missing.length > 1 && prefix
        ? [{ filter: prefix, names: missing }]
        : missing.map((name) => ({ filter: name, names: [name] }));
    for (const lookup of lookups) {
      const answer = withBoundedRetry('roles.list', policy, (options) =>
        this.client.roles.list({ name_filter: lookup.filter }, options),
      );
      for (const name of lookup.names) {
        const id = answer.then((roles) => {
          // `name_filter` matches names that contain it: only the exact name counts.
          const role = roles.find((candidate) => candidate.name === name);
          if (!role) throw new Error(`The tenant has no role named ${name}; run provisioning`);
          return role.id;
        });
        id.catch(() => {
          if (this.#ids.get(name) === id) this.#ids.delete(name);
        });
        this.#ids.set(name, id);
      }
    }
    return Promise.all(names.map((name) => this.#ids.get(name) as Promise<string>));
  }
}

export class Auth0UserDirectory implements UserDirectory, OrganizationDirectory {
  readonly #roleIds: TenantRoleIds;

  constructor(
    private readonly client: ManagementApi,
    private readonly policy: RetryPolicy = defaultRetryPolicy,
    private readonly connection: string = DATABASE_CONNECTION,
  ) {
    this.#roleIds = new TenantRoleIds(client);
  }

  async get(userId: string): Promise<DirectoryUser | undefined> {
    try {
      const user = await withBoundedRetry('users.get', this.policy, (options) =>
        this.client.users.get(userId, options),
      );
      return toDirectoryUser(user);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async findByEmail(email: string): Promise<DirectoryUser | undefined> {
    const wanted = email.trim().toLowerCase();
    const users = await withBoundedRetry('users.listUsersByEmail', this.policy, (options) =>
      this.client.users.listUsersByEmail({ email: wanted }, options),
    );
    // Auth0 lower-cases database-connection emails, but other connections may not: compare ourselves.
    const match = users.find((user) => user.email?.toLowerCase() === wanted);
    return match ? toDirectoryUser(match) : undefined;
  }

  async create(input: {
    email: string;
    name: string;
    password: string;
    appMetadata: AppMetadata;
  }): Promise<DirectoryUser> {
    try {
      const user = await withBoundedRetry('users.create', this.policy, (options) =>
        this.client.users.create(
          {
            connection: this.connection,
            email: input.email,
            password: input.password,
            name: input.name,
            email_verified: false,
            verify_email: false,
            app_metadata: flatMetadataPatch(input.appMetadata),
          },
          options,
        ),
      );
      return toDirectoryUser(user);
    } catch (error) {
      // Also the answer to our own retried POST whose first attempt did create the user.
      if (statusOf(error) === 409) throw new UserAlreadyExistsError('The email already has an account');
      throw error;
    }
  }

  async updateAppMetadata(userId: string, patch: MetadataPatch): Promise<AppMetadata | undefined> {
    const flat = flatMetadataPatch(patch);
    // An empty object would be a no-op at best; `app_metadata: {}` must never reach the tenant.
    if (Object.keys(flat).length === 0) return undefined;
    // A PATCH that timed out may still be applied later, after a newer one (Auth0's PATCH has no
    // condition). Retried here, it would let the caller finish as if all had gone well; failing
    // instead makes the caller's delivery fail, and its retry (a minute later in AWS) compares
    // Auth0 with the table again once the lost PATCH has landed or never will (ADR 0031).
    const updated = await withBoundedRetry(
      'users.update',
      this.policy,
      (options) => this.client.users.update(userId, { app_metadata: flat }, options),
      { retryTimeouts: false },
    );
    return toAppMetadata(updated.app_metadata);
  }

  async createPasswordChangeTicket(userId: string, resultUrl: string): Promise<string> {
    const answer = await withBoundedRetry('tickets.changePassword', this.policy, (options) =>
      this.client.tickets.changePassword(
        {
          user_id: userId,
          result_url: resultUrl,
          // The lifetime the login-instructions email states.
          ttl_sec: passwordTicketTtlDays * 24 * 60 * 60,
          mark_email_as_verified: true,
        },
        options,
      ),
    );
    if (!answer.ticket) throw new Error('Auth0 returned a password-change ticket without a URL');
    return answer.ticket;
  }

  async sendVerificationEmail(userId: string): Promise<boolean> {
    try {
      await withBoundedRetry('jobs.verificationEmail.create', this.policy, (options) =>
        this.client.jobs.verificationEmail.create({ user_id: userId }, options),
      );
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  async createOrganization(input: {
    name: string;
    displayName: string;
    metadata: Record<string, string>;
  }): Promise<DirectoryOrganization> {
    try {
      const organization = await withBoundedRetry('organizations.create', this.policy, (options) =>
        this.client.organizations.create(
          { name: input.name, display_name: input.displayName, metadata: input.metadata },
          options,
        ),
      );
      return toDirectoryOrganization(organization);
    } catch (error) {
      // Also the answer to our own retried POST whose first attempt did create it.
      if (statusOf(error) === 409) throw new OrganizationNameTakenError('The organization name is taken');
      throw error;
    }
  }

  async findOrganizationByName(name: string): Promise<DirectoryOrganization | undefined> {
    try {
      const organization = await withBoundedRetry('organizations.getByName', this.policy, (options) =>
        this.client.organizations.getByName(name, options),
      );
      return toDirectoryOrganization(organization);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  /** Two calls (members, then member roles), plus one `GET /roles` per role name and container. */
  async addMember(organizationId: string, userId: string, roles: readonly OrganizationRole[]): Promise<void> {
    const roleIds = await this.#roleIds.ids(roles, this.policy);
    await withBoundedRetry('organizations.addMembers', this.policy, (options) =>
      this.client.organizations.addMembers(organizationId, { members: [userId] }, options),
    );
    if (roleIds.length === 0) return;
    await withBoundedRetry('organizations.addMemberRoles', this.policy, (options) =>
      this.client.organizations.addMemberRoles(organizationId, userId, { roles: roleIds }, options),
    );
  }

  async delete(userId: string): Promise<void> {
    try {
      await withBoundedRetry('users.delete', this.policy, (options) =>
        this.client.users.delete(userId, options),
      );
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }
}

/**
 * A Management API client whose credentials follow their secret: rebuilt (new client, new token)
 * when the secret's version or value changes, read through the five-minute secret cache; and when
 * Auth0 answers 401 (credentials rotated in the dashboard before, or just after, the secret was
 * updated), the secret is read again once, bypassing the cache, and the call repeated once with the
 * new credentials if they differ. Concurrent 401s share that one read.
 */
export class CredentialedManagementApi implements ManagementApi {
  #built: { version: string; api: ManagementApi } | undefined;
  #freshRead: Promise<ManagementApi> | undefined;

  constructor(private readonly key: Auth0M2mKey) {}

  /** The client for the secret's current value: the cached one unless `fresh`. */
  async current(options: { fresh?: boolean } = {}): Promise<ManagementApi> {
    const secret = await getSecretVersion(this.key, options);
    const version = `${secret.versionId ?? ''}\n${secret.value}`;
    if (this.#built?.version === version) return this.#built.api;
    const credentials = parseM2mCredentials(secret.value, this.key);
    const api = createManagementApi({
      domain: requireEnv('auth0Domain'),
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      baseUrl: optionalEnv('auth0ManagementBaseUrl'),
      // The tenant's quota is shared by every purpose: count each one's calls, and the refusals.
      onCall: (_operation, status) => {
        countMetricBy('Auth0ManagementCalls', { Purpose: this.key });
        if (status === 429) countMetricBy('Auth0ManagementRateLimited', { Purpose: this.key });
      },
    });
    if (this.#built) {
      logger.info('auth0 credentials changed: client rebuilt', {
        credentials: this.key,
        versionId: secret.versionId,
      });
    }
    this.#built = { version, api };
    return api;
  }

  async #call<T>(call: (api: ManagementApi) => Promise<T>): Promise<T> {
    const api = await this.current();
    try {
      return await call(api);
    } catch (error) {
      if (statusOf(error) !== 401) throw error;
      let next = this.#built?.api;
      if (next === api) {
        this.#freshRead ??= this.current({ fresh: true }).finally(() => {
          this.#freshRead = undefined;
        });
        try {
          next = await this.#freshRead;
        } catch (readError) {
          logger.warn('auth0 answered 401 and the credentials could not be read again', {
            credentials: this.key,
            error: readError instanceof Error ? readError.message : String(readError),
          });
          throw error;
        }
      }
      // The same credentials again: Auth0 refuses them, and an operator must store the new ones.
      if (!next || next === api) throw error;
      return call(next);
    }
  }

  users: ManagementApi['users'] = {
    get: (userId, options) => this.#call((api) => api.users.get(userId, options)),
    listUsersByEmail: (query, options) => this.#call((api) => api.users.listUsersByEmail(query, options)),
    create: (user, options) => this.#call((api) => api.users.create(user, options)),
    update: (userId, patch, options) => this.#call((api) => api.users.update(userId, patch, options)),
    delete: (userId, options) => this.#call((api) => api.users.delete(userId, options)),
  };

  tickets: ManagementApi['tickets'] = {
    changePassword: (ticket, options) => this.#call((api) => api.tickets.changePassword(ticket, options)),
  };

  jobs: ManagementApi['jobs'] = {
    verificationEmail: {
      create: (job, options) => this.#call((api) => api.jobs.verificationEmail.create(job, options)),
    },
  };

  organizations: ManagementApi['organizations'] = {
    create: (organization, options) => this.#call((api) => api.organizations.create(organization, options)),
    getByName: (name, options) => this.#call((api) => api.organizations.getByName(name, options)),
    addMembers: (id, body, options) => this.#call((api) => api.organizations.addMembers(id, body, options)),
    addMemberRoles: (id, userId, body, options) =>
      this.#call((api) => api.organizations.addMemberRoles(id, userId, body, options)),
    deleteMembers: (id, body, options) =>
      this.#call((api) => api.organizations.deleteMembers(id, body, options)),
    deleteMemberRoles: (id, userId, body, options) =>
      this.#call((api) => api.organizations.deleteMemberRoles(id, userId, body, options)),
    createInvitation: (id, body, options) =>
      this.#call((api) => api.organizations.createInvitation(id, body, options)),
    deleteInvitation: (id, invitationId, options) =>
      this.#call((api) => api.organizations.deleteInvitation(id, invitationId, options)),
  };

  roles: ManagementApi['roles'] = {
    list: (query, options) => this.#call((api) => api.roles.list(query, options)),
  };
}

const directories = new Map<
  Auth0M2mKey,
  { client: CredentialedManagementApi; directory: UserDirectory & OrganizationDirectory }
>();

/**
 * One directory (and so one Management API client with its cached token) per container and
 * credentials, following the credentials' secret (`CredentialedManagementApi`). The caller names
 * the M2M credentials its grant gives it (`secret(...)` in routes.ts or event-rules.ts): each holds
 * only the scopes that caller needs. The secret is read on every call (cached five minutes), so an
 * unreadable or malformed secret fails the call, and the next one tries again.
 */
export async function getUserDirectory(
  credentials: Auth0M2mKey,
): Promise<UserDirectory & OrganizationDirectory> {
  let entry = directories.get(credentials);
  if (!entry) {
    const client = new CredentialedManagementApi(credentials);
    entry = { client, directory: new Auth0UserDirectory(client, deferredWorkRetryPolicy) };
    directories.set(credentials, entry);
  }
  await entry.client.current();
  return entry.directory;
}

/**
 * The issuer of the identity provider's tokens, which is also the consent ledger's subject issuer
 * for records written without a token (registration): the `iss` the tokens carry, so records from
 * registration and from signed-in calls name one subject. With a custom domain that is the custom
 * domain, not the canonical one the Management API is called at.
 */
export function identityIssuer(): string {
  return requireEnv('auth0Issuer');
}

/**
 * An Auth0 answer that no retry of this event can change (4xx other than 401, 403, 408 and 429):
 * an event target drops the event with an error log instead of letting EventBridge retry it into
 * the dead-letter queue. A 401 (our client credentials refused) or 403 (our application lacks a
 * scope) is our configuration, not the event, being wrong: once an operator fixes the secret or the
 * scopes (docs/operating.md), a replay from the dead-letter queue must still apply the event.
 */
export function isPermanentDirectoryError(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined || status < 400 || status >= 500) return false;
  return ![401, 403, 408, 429].includes(status);
}
