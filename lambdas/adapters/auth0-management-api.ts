import * as z from 'zod/mini';

// The part of the Auth0 Management API the backend uses, over plain fetch (ADR 0010): the `auth0`
// SDK's per-resource clients cost 127 KB of every bundle that reaches Auth0. One attempt per call:
// retrying (bounded, logged, honouring the tenant's rate-limit headers) is the caller's job
// (`Auth0UserDirectory`, `Auth0OrganizationTeamDirectory`), so errors carry what a retry needs to
// know. The one request this client repeats by itself is a call answered 401, once, with a fresh
// token: Auth0 rejected it unprocessed.

export interface ManagementApiConfig {
  /** The Auth0 tenant domain, a bare host name (`tenant.eu.auth0.com`, or `localhost:4010` locally). */
  domain: string;
  clientId: string;
  clientSecret: string;
  /**
   * Where `https://<domain>` really lives, when that is not `https://<domain>` (the local identity
   * provider serves plain http on loopback). Token and Management API requests are sent there, and
   * the Management API audience becomes `<baseUrl>/api/v2/`. Unset in AWS.
   */
  baseUrl?: string | undefined;
  /** Per call, token included, unless the call says otherwise. */
  timeoutMs?: number | undefined;
  fetch?: typeof fetch | undefined;
  /**
   * Told of every request the tenant answered (the call's operation and the status), so each
   * caller can count its calls per purpose. Not told of a call the quota's backoff held back.
   */
  onCall?: ((operation: string, status: number) => void) | undefined;
  /** The tenant's quota record; by default the one this container shares for the origin. */
  quota?: TenantQuota | undefined;
}

/**
 * What the tenant's answers say about its Management API quota, which is one per tenant (Auth0
 * sends `x-ratelimit-limit`, `-remaining` and `-reset` on every answer). Shared by every client of
 * the tenant in this container: once one call learns that the quota is spent, no other call
 * spends a request to learn it again; each waits for the reset, or, when its caller cannot wait
 * that long, fails at once with the 429 the tenant would have answered (ADR 0059).
 */
export class TenantQuota {
  #blockedUntil = 0;
  limit: number | undefined;
  remaining: number | undefined;

  /** Milliseconds until the tenant will take a call again (0: now). */
  waitMs(nowMs: number): number {
    return Math.max(0, this.#blockedUntil - nowMs);
  }

  observe(status: number, headers: Headers, nowMs: number): void {
    const number = (name: string) => {
      const value = headers.get(name)?.trim();
      return value && /^\d+$/.test(value) ? Number(value) : undefined;
    };
    this.limit = number('x-ratelimit-limit') ?? this.limit;
    this.remaining = number('x-ratelimit-remaining');
    const delay = serverRequestedDelayMs(headers, nowMs);
    if (delay === undefined) return;
    if (status === 429) {
      // Spent until the reset it names (without one, the caller's own backoff decides).
      this.#blockedUntil = Math.max(this.#blockedUntil, nowMs + delay);
    } else if (this.remaining === 0) {
      // This call took the last token: the next one would be refused until the reset.
      this.#blockedUntil = Math.max(this.#blockedUntil, nowMs + delay);
    }
  }
}

const quotas = new Map<string, TenantQuota>();
/** The one quota record of a tenant (by its Management API origin) in this container. */
export function tenantQuota(origin: string): TenantQuota {
  let quota = quotas.get(origin);
  if (!quota) {
    quota = new TenantQuota();
    quotas.set(origin, quota);
  }
  return quota;
}

/**
 * A machine-to-machine application's credentials as its secret holds them (JSON `{clientId,
 * clientSecret}`): the one reader, for the functions, the erasure script and the preflight.
 */
export function parseM2mCredentials(
  value: string,
  secretName = 'Auth0 M2M',
): { clientId: string; clientSecret: string } {
  let parsed: { clientId?: unknown; clientSecret?: unknown } | undefined;
  try {
    parsed = JSON.parse(value) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  const { clientId, clientSecret } = parsed ?? {};
  if (typeof clientId !== 'string' || !clientId || typeof clientSecret !== 'string' || !clientSecret) {
    throw new Error(`The ${secretName} secret must hold {clientId, clientSecret}`);
  }
  return { clientId, clientSecret };
}

export interface CallOptions {
  /** Bounds the whole call: waiting for a token, the request and its answer, a replay after a 401. */
  timeoutMs?: number | undefined;
}

/** Lambda-friendly: a slow tenant must not eat the whole invocation. */
const DEFAULT_TIMEOUT_MS = 8_000;

/** A token is replaced this long before it expires (at most half its lifetime). */
const TOKEN_REFRESH_AHEAD_MS = 60_000;

/** Flat `app_metadata` values: Auth0 merges top-level keys and replaces nested objects wholesale. */
export type FlatMetadata = Record<string, string | number | boolean | null>;

export interface CreateUserRequest {
  connection: string;
  email: string;
  password: string;
  name?: string;
  email_verified?: boolean;
  verify_email?: boolean;
  app_metadata?: FlatMetadata;
}

export interface UpdateUserRequest {
  /** Top-level keys are merged into the user's; `null` deletes a key. */
  app_metadata: FlatMetadata;
}

export interface PasswordChangeTicketRequest {
  user_id: string;
  result_url?: string;
  ttl_sec?: number;
  mark_email_as_verified?: boolean;
}

const optionalText = z.optional(z.nullable(z.string()));

const managementUser = z.looseObject({
  user_id: optionalText,
  email: optionalText,
  email_verified: z.optional(z.nullable(z.boolean())),
  name: optionalText,
  app_metadata: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});
export type ManagementUser = z.infer<typeof managementUser>;
const managementUsers = z.array(managementUser);

/** Auth0's organization (Create/Get an organization): `metadata` values are strings. */
const managementOrganization = z.looseObject({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  display_name: optionalText,
  metadata: z.optional(z.nullable(z.record(z.string(), z.string()))),
});
export type ManagementOrganization = z.infer<typeof managementOrganization>;

export interface CreateOrganizationRequest {
  /** Lowercase letters, digits, `_` and `-`, 1 to 50 characters; unique in the tenant. */
  name: string;
  display_name?: string;
  /** At most 25 keys, string values of at most 255 characters. */
  metadata?: Record<string, string>;
}

const managementRole = z.looseObject({ id: z.string().check(z.minLength(1)), name: z.string() });
export type ManagementRole = z.infer<typeof managementRole>;
const managementRoles = z.array(managementRole);

export interface CreateOrganizationInvitationRequest {
  /** The name the invitation email shows ("<name> has invited you to join <organization>"). */
  inviter: { name: string };
  invitee: { email: string };
  /** The application the invitation's link signs in to: its "Application Login URI" starts the link. */
  client_id: string;
  /** The connection the invitee must use; the application's connections when absent. */
  connection_id?: string;
  /** Seconds until the link stops working: 0 or absent is 604800 (7 days), at most 2592000 (30 days). */
  ttl_sec?: number;
  /** Role **ids** the invitee is given as a member when they accept. */
  roles?: string[];
  /** True by default: Auth0 sends its invitation email. */
  send_invitation_email?: boolean;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
}

/** Auth0's invitation (Create invitations' answer); what the backend reads is required. */
const managementInvitation = z.looseObject({
  id: z.string().check(z.minLength(1)),
  organization_id: optionalText,
  invitation_url: z.string().check(z.minLength(1)),
  created_at: z.string().check(z.minLength(1)),
  expires_at: z.string().check(z.minLength(1)),
  invitee: z.optional(z.nullable(z.looseObject({ email: optionalText }))),
  roles: z.optional(z.nullable(z.array(z.string()))),
  ticket_id: optionalText,
});
export type ManagementInvitation = z.infer<typeof managementInvitation>;

const passwordChangeTicket = z.looseObject({ ticket: z.string() });
export type PasswordChangeTicket = z.infer<typeof passwordChangeTicket>;

const verificationEmailJob = z.looseObject({ id: optionalText, type: optionalText, status: optionalText });
export type VerificationEmailJob = z.infer<typeof verificationEmailJob>;

const tokenAnswer = z.looseObject({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.number().check(z.positive()),
});

/** The operations the backend needs, named like the SDK's so the two read alike. */
export interface ManagementApi {
  users: {
    get(userId: string, options?: CallOptions): Promise<ManagementUser>;
    listUsersByEmail(query: { email: string }, options?: CallOptions): Promise<ManagementUser[]>;
    create(user: CreateUserRequest, options?: CallOptions): Promise<ManagementUser>;
    update(userId: string, patch: UpdateUserRequest, options?: CallOptions): Promise<ManagementUser>;
    delete(userId: string, options?: CallOptions): Promise<void>;
  };
  tickets: {
    changePassword(ticket: PasswordChangeTicketRequest, options?: CallOptions): Promise<PasswordChangeTicket>;
  };
  jobs: {
    verificationEmail: {
      create(job: { user_id: string }, options?: CallOptions): Promise<VerificationEmailJob>;
    };
  };
  organizations: {
    /** POST /organizations (`create:organizations`); 409 when the name is taken. */
    create(organization: CreateOrganizationRequest, options?: CallOptions): Promise<ManagementOrganization>;
    /** GET /organizations/name/{name} (`read:organizations`); 404 when there is none. */
    getByName(name: string, options?: CallOptions): Promise<ManagementOrganization>;
    /** POST /organizations/{id}/members (`create:organization_members`); 204, also for a member. */
    addMembers(id: string, body: { members: string[] }, options?: CallOptions): Promise<void>;
    /** POST /organizations/{id}/members/{user_id}/roles (`create:organization_member_roles`); 204. */
    addMemberRoles(
      id: string,
      userId: string,
      body: { roles: string[] },
      options?: CallOptions,
    ): Promise<void>;
    /** DELETE /organizations/{id}/members (`delete:organization_members`); 204. */
    deleteMembers(id: string, body: { members: string[] }, options?: CallOptions): Promise<void>;
    /** DELETE /organizations/{id}/members/{user_id}/roles (`delete:organization_member_roles`); 204. */
    deleteMemberRoles(
      id: string,
      userId: string,
      body: { roles: string[] },
      options?: CallOptions,
    ): Promise<void>;
    /** POST /organizations/{id}/invitations (`create:organization_invitations`); 201 with the invitation. */
    createInvitation(
      id: string,
      body: CreateOrganizationInvitationRequest,
      options?: CallOptions,
    ): Promise<ManagementInvitation>;
    /** DELETE /organizations/{id}/invitations/{invitation_id} (`delete:organization_invitations`); 204. */
    deleteInvitation(id: string, invitationId: string, options?: CallOptions): Promise<void>;
  };
  roles: {
    /** GET /roles?name_filter= (`read:roles`): the tenant's roles whose name contains the filter. */
    list(query: { name_filter: string }, options?: CallOptions): Promise<ManagementRole[]>;
  };
}

/** Auth0 answered with an error status (`{statusCode, error, message, errorCode}` for the API). */
export class ManagementApiError extends Error {
  readonly operation: string;
  readonly status: number;
  /** Auth0's `errorCode` (`inexistent_user`, `insufficient_scope`...) or OAuth's `error`. */
  readonly errorCode: string | undefined;
  /** Auth0's `message` (or OAuth's `error_description`), at most 200 characters. */
  readonly detail: string;
  /** How long the tenant asked us to wait (`x-ratelimit-reset` or `Retry-After`), from when it answered. */
  readonly retryAfterMs: number | undefined;

  constructor(input: {
    operation: string;
    status: number;
    errorCode?: string | undefined;
    detail?: string | undefined;
    retryAfterMs?: number | undefined;
  }) {
    const detail = input.detail ?? 'error';
    super(`Auth0 ${input.operation} failed with ${input.status}: ${detail}`);
    this.name = 'ManagementApiError';
    this.operation = input.operation;
    this.status = input.status;
    this.errorCode = input.errorCode;
    this.detail = detail;
    this.retryAfterMs = input.retryAfterMs;
  }
}

/** No answer within the call's timeout; the request may or may not have been processed. */
export class ManagementTimeoutError extends Error {
  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`Auth0 ${operation} timed out after ${timeoutMs} ms`, options);
    this.name = 'ManagementTimeoutError';
  }
}

/** How long the server asked us to wait, in ms: `x-ratelimit-reset` (epoch seconds) or `Retry-After`. */
export function serverRequestedDelayMs(headers: Headers | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const reset = headers.get('x-ratelimit-reset');
  if (reset && /^\d+$/.test(reset.trim())) return Math.max(0, Number(reset) * 1000 - nowMs);
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
  }
  return undefined;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** Waits for a promise that others may share, but no longer than this caller's signal allows. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function errorFrom(operation: string, response: Response): Promise<ManagementApiError> {
  const retryAfterMs = serverRequestedDelayMs(response.headers, Date.now());
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await response.text());
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's error page, an empty body): the status says enough.
  }
  const first = (...values: unknown[]) =>
    values.find((value): value is string => typeof value === 'string' && value !== '');
  return new ManagementApiError({
    operation,
    status: response.status,
    errorCode: first(body.errorCode, body.error),
    detail: first(body.message, body.error_description, body.error, response.statusText)?.slice(0, 200),
    retryAfterMs,
  });
}

/** Fetch, with a network failure named for the operation (a timeout is left to the caller). */
async function send(
  fetchImpl: typeof fetch,
  operation: string,
  url: string,
  init: RequestInit & { signal: AbortSignal },
): Promise<Response> {
  try {
    return await fetchImpl(url, init);
  } catch (error) {
    if (init.signal.aborted && isAbort(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Auth0 ${operation} request failed: ${reason}`, { cause: error });
  }
}

/**
 * OAuth2 client credentials, cached per instance until shortly before they expire; concurrent
 * callers share one token request.
 */
class ClientCredentialsToken {
  private cached: { accessToken: string; refreshAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly tokenUrl: string,
    private readonly form: URLSearchParams,
    private readonly timeoutMs: number,
    private readonly fetchImpl: typeof fetch,
  ) {}

  get(signal: AbortSignal): Promise<string> {
    if (this.cached && Date.now() < this.cached.refreshAt) return Promise.resolve(this.cached.accessToken);
    this.pending ??= this.request().finally(() => {
      this.pending = undefined;
    });
    return untilAborted(this.pending, signal);
  }

  /** Forgets a token the API refused, unless another caller already replaced it. */
  reject(accessToken: string): void {
    if (this.cached?.accessToken === accessToken) this.cached = undefined;
  }

  private async request(): Promise<string> {
    const operation = 'oauth.token';
    const requestedAt = Date.now();
    // Its own timeout: the request is shared, so no single caller's deadline may cancel it.
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await send(this.fetchImpl, operation, this.tokenUrl, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: this.form.toString(),
        signal,
      });
      if (!response.ok) throw await errorFrom(operation, response);
      const answer = parseAnswer(operation, tokenAnswer, await response.text());
      const lifetimeMs = answer.expires_in * 1000;
      const refreshAt = requestedAt + lifetimeMs - Math.min(TOKEN_REFRESH_AHEAD_MS, lifetimeMs / 2);
      this.cached = { accessToken: answer.access_token, refreshAt };
      return answer.access_token;
    } catch (error) {
      if (signal.aborted && isAbort(error)) {
        throw new ManagementTimeoutError(operation, this.timeoutMs, { cause: error });
      }
      throw error;
    }
  }
}

function parseAnswer<T>(operation: string, schema: z.ZodMiniType<T>, raw: string): T {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`Auth0 ${operation} answered with a body that is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`Auth0 ${operation} answered with an unexpected shape`);
  return parsed.data;
}

const userPath = (userId: string) => `/users/${encodeURIComponent(userId)}`;
const organizationPath = (id: string) => `/organizations/${encodeURIComponent(id)}`;

/**
 * Management API access for Lambda with machine-to-machine credentials. The token is cached per
 * instance: create one per container and reuse it.
 */
export function createManagementApi(config: ManagementApiConfig): ManagementApi {
  if (/[/?#]/.test(config.domain)) {
    throw new Error(`Auth0 domain must be a bare host name, not "${config.domain}"`);
  }
  const origin = config.baseUrl ? config.baseUrl.replace(/(?<!\/)\/+$/, '') : `https://${config.domain}`;
  const apiUrl = `${origin}/api/v2`;
  const defaultTimeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fetchImpl = config.fetch ?? fetch;
  const quota = config.quota ?? tenantQuota(origin);
  const tokens = new ClientCredentialsToken(
    `${origin}/oauth/token`,
    new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: config.clientId,
      client_secret: config.clientSecret,
      audience: `${apiUrl}/`,
    }),
    defaultTimeoutMs,
    fetchImpl,
  );

  /** One call: a token, the request, one replay with a fresh token after a 401; the answer's text. */
  async function call(
    operation: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body: unknown,
    options: CallOptions | undefined,
  ): Promise<string> {
    const timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
    const started = Date.now();
    const wait = quota.waitMs(started);
    if (wait > 0) {
      // Spent, as an earlier answer said: no request can succeed before the reset.
      if (wait >= timeoutMs) {
        throw new ManagementApiError({
          operation,
          status: 429,
          errorCode: 'too_many_requests',
          detail: "The tenant's Management API quota is spent until its reset (held back here)",
          retryAfterMs: wait,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const signal = AbortSignal.timeout(Math.max(1, timeoutMs - (Date.now() - started)));
    const attempt = (accessToken: string) =>
      send(fetchImpl, operation, `${apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${accessToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal,
      });
    try {
      const answered = async (accessToken: string) => {
        const response = await attempt(accessToken);
        quota.observe(response.status, response.headers, Date.now());
        config.onCall?.(operation, response.status);
        return response;
      };
      let accessToken = await tokens.get(signal);
      let response = await answered(accessToken);
      if (response.status === 401) {
        await response.body?.cancel();
        tokens.reject(accessToken);
        accessToken = await tokens.get(signal);
        response = await answered(accessToken);
      }
      if (!response.ok) throw await errorFrom(operation, response);
      return await response.text();
    } catch (error) {
      if (signal.aborted && isAbort(error))
        throw new ManagementTimeoutError(operation, timeoutMs, { cause: error });
      throw error;
    }
  }

  async function callFor<T>(
    schema: z.ZodMiniType<T>,
    operation: string,
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body: unknown,
    options: CallOptions | undefined,
  ): Promise<T> {
    return parseAnswer(operation, schema, await call(operation, method, path, body, options));
  }

  return {
    users: {
      get: (userId, options) =>
        callFor(managementUser, 'users.get', 'GET', userPath(userId), undefined, options),
      listUsersByEmail: ({ email }, options) =>
        callFor(
          managementUsers,
          'users.listUsersByEmail',
          'GET',
          `/users-by-email?email=${encodeURIComponent(email)}`,
          undefined,
          options,
        ),
      create: (user, options) => callFor(managementUser, 'users.create', 'POST', '/users', user, options),
      update: (userId, patch, options) =>
        callFor(managementUser, 'users.update', 'PATCH', userPath(userId), patch, options),
      delete: async (userId, options) => {
        await call('users.delete', 'DELETE', userPath(userId), undefined, options);
      },
    },
    tickets: {
      changePassword: (ticket, options) =>
        callFor(
          passwordChangeTicket,
          'tickets.changePassword',
          'POST',
          '/tickets/password-change',
          ticket,
          options,
        ),
    },
    jobs: {
      verificationEmail: {
        create: (job, options) =>
          callFor(
            verificationEmailJob,
            'jobs.verificationEmail.create',
            'POST',
            '/jobs/verification-email',
            job,
            options,
          ),
      },
    },
    organizations: {
      create: (organization, options) =>
        callFor(
          managementOrganization,
          'organizations.create',
          'POST',
          '/organizations',
          organization,
          options,
        ),
      getByName: (name, options) =>
        callFor(
          managementOrganization,
          'organizations.getByName',
          'GET',
          `/organizations/name/${encodeURIComponent(name)}`,
          undefined,
          options,
        ),
      addMembers: async (id, body, options) => {
        await call('organizations.addMembers', 'POST', `${organizationPath(id)}/members`, body, options);
      },
      addMemberRoles: async (id, userId, body, options) => {
        await call(
          'organizations.addMemberRoles',
          'POST',
          `${organizationPath(id)}/members/${encodeURIComponent(userId)}/roles`,
          body,
          options,
        );
      },
      // Auth0's deletes of members and member roles take their ids in a JSON body.
      deleteMembers: async (id, body, options) => {
        await call('organizations.deleteMembers', 'DELETE', `${organizationPath(id)}/members`, body, options);
      },
      deleteMemberRoles: async (id, userId, body, options) => {
        await call(
          'organizations.deleteMemberRoles',
          'DELETE',
          `${organizationPath(id)}/members/${encodeURIComponent(userId)}/roles`,
          body,
          options,
        );
      },
      createInvitation: (id, body, options) =>
        callFor(
          managementInvitation,
          'organizations.createInvitation',
          'POST',
          `${organizationPath(id)}/invitations`,
          body,
          options,
        ),
      deleteInvitation: async (id, invitationId, options) => {
        await call(
          'organizations.deleteInvitation',
          'DELETE',
          `${organizationPath(id)}/invitations/${encodeURIComponent(invitationId)}`,
          undefined,
          options,
        );
      },
    },
    roles: {
      list: ({ name_filter }, options) =>
        callFor(
          managementRoles,
          'roles.list',
          'GET',
          `/roles?name_filter=${encodeURIComponent(name_filter)}`,
          undefined,
          options,
        ),
    },
  };
}
