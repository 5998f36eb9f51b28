import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet, type JWK, jwtVerify } from 'jose';
import { z } from 'zod';
import { BodyError, parseBody, readRawBody, sendJson } from './http-util.ts';
import {
  DATABASE_CONNECTION_ID,
  INVITATION_TTL_DEFAULT_SEC,
  INVITATION_TTL_MAX_SEC,
  type Invitation,
  type Organization,
  OrganizationExistsError,
  type OrganizationStore,
} from './organization-store.ts';
import type { TicketService } from './tickets.ts';
import {
  DATABASE_CONNECTION,
  hashPassword,
  toAuth0User,
  UserExistsError,
  type UserStore,
} from './user-store.ts';

export interface ManagementDeps {
  issuer: string;
  managementAudience: string;
  publicJwks: { keys: JWK[] };
  users: UserStore;
  tickets: TicketService;
  /** Organizations, roles, members and invitations (ADR 0081). */
  organizations: OrganizationStore;
  /**
   * The application invitations may name (`client_id`) and its "Application Login URI", which
   * `invitation_url` starts with as on Auth0.
   */
  invitationClient: { clientId: string; initiateLoginUri: string };
  /**
   * The tenant's rate limit (ADR 0061), asked first for every call: answers it 429 itself and
   * returns true when the bucket is empty; otherwise sets the `x-ratelimit-*` headers the answer
   * carries.
   */
  admit?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
  /** The fault knob (ADR 0035): answers the call itself (429, 503) and returns true, or delays it. */
  injectFault?: (res: ServerResponse) => Promise<boolean>;
}

class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    readonly errorCode: string,
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new ApiError(400, 'Bad Request', message, 'invalid_body');
const notFound = () => new ApiError(404, 'Not Found', 'The user does not exist.', 'inexistent_user');

const metadata = z.record(z.string(), z.unknown());

// Organizations (ADR 0081). Auth0: a name is lowercase letters, digits, `_` and `-`, at most 50
// characters; metadata holds at most 25 string values (keys and values up to 255 characters).
const organizationName = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[a-z0-9_-]+$/, 'lowercase letters, digits, "_" and "-" only');
const organizationMetadata = z.record(z.string().max(255), z.string().max(255));
const branding = z.strictObject({
  logo_url: z.url().optional(),
  colors: z.strictObject({ primary: z.string(), page_background: z.string() }).partial().optional(),
});
const createOrganizationBody = z.strictObject({
  name: organizationName,
  display_name: z.string().min(1).max(255).optional(),
  branding: branding.optional(),
  metadata: organizationMetadata.optional(),
});
const patchOrganizationBody = z.strictObject({
  name: organizationName.optional(),
  display_name: z.string().min(1).max(255).optional(),
  branding: branding.nullable().optional(),
  metadata: z.record(z.string().max(255), z.string().max(255).nullable()).nullable().optional(),
});
const membersBody = z.strictObject({ members: z.array(z.string().min(1)).min(1).max(10) });
const rolesBody = z.strictObject({ roles: z.array(z.string().min(1)).min(1).max(10) });
const createRoleBody = z.strictObject({
  name: z.string().min(1).max(50),
  description: z.string().max(140).optional(),
});
const createInvitationBody = z.strictObject({
  inviter: z.strictObject({ name: z.string().min(1).max(300) }),
  invitee: z.strictObject({ email: z.email() }),
  client_id: z.string().min(1),
  connection_id: z.string().min(1).optional(),
  app_metadata: metadata.optional(),
  user_metadata: metadata.optional(),
  ttl_sec: z.number().int().min(0).max(INVITATION_TTL_MAX_SEC).optional(),
  roles: z.array(z.string().min(1)).max(50).optional(),
  send_invitation_email: z.boolean().optional(),
});

/** Auth0's `page` (from 0) and `per_page` (50 unless given, at most 100), and `include_totals`. */
function paged<T>(url: URL, items: T[], key: string): unknown {
  const page = Number(url.searchParams.get('page') ?? '0');
  const perPage = Number(url.searchParams.get('per_page') ?? '50');
  if (!Number.isInteger(page) || page < 0 || !Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
    throw new ApiError(
      400,
      'Bad Request',
      'Query validation error: page must be an integer >= 0 and per_page between 1 and 100',
      'invalid_query_string',
    );
  }
  const start = page * perPage;
  const slice = items.slice(start, start + perPage);
  if (url.searchParams.get('include_totals') !== 'true') return slice;
  return { [key]: slice, start, limit: perPage, total: items.length };
}

/** The organization as the Management API answers it (optional fields only when set). */
function toAuth0Organization(organization: Organization) {
  return structuredClone(organization);
}
const connection = z.literal(DATABASE_CONNECTION, {
  error: `connection must be "${DATABASE_CONNECTION}" (the only database connection here)`,
});

const createUserBody = z.strictObject({
  email: z.email(),
  password: z.string().min(8),
  connection,
  name: z.string().min(1).optional(),
  nickname: z.string().optional(),
  email_verified: z.boolean().optional(),
  verify_email: z.boolean().optional(),
  blocked: z.boolean().optional(),
  app_metadata: metadata.optional(),
  user_metadata: metadata.optional(),
});

const patchUserBody = z.strictObject({
  email: z.email().optional(),
  password: z.string().min(8).optional(),
  connection: connection.optional(),
  name: z.string().min(1).optional(),
  nickname: z.string().optional(),
  email_verified: z.boolean().optional(),
  verify_email: z.boolean().optional(),
  blocked: z.boolean().optional(),
  app_metadata: metadata.nullable().optional(),
  user_metadata: metadata.nullable().optional(),
});

const verificationJobBody = z.strictObject({
  user_id: z.string().min(1),
  client_id: z.string().optional(),
  identity: z.object({ user_id: z.string(), provider: z.string() }).optional(),
  organization_id: z.string().optional(),
});

const passwordTicketBody = z.strictObject({
  user_id: z.string().optional(),
  email: z.email().optional(),
  connection_id: z.string().optional(),
  result_url: z.url().optional(),
  ttl_sec: z.number().int().nonnegative().optional(),
  mark_email_as_verified: z.boolean().optional(),
  includeEmailInRedirect: z.boolean().optional(),
  client_id: z.string().optional(),
  organization_id: z.string().optional(),
});

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const details = result.error.issues
    .map((issue) => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys')
        return `Additional properties not allowed: ${issue.keys.join(', ')}`;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
  throw badRequest(`Payload validation error: ${details}`);
}

/** Top-level merge like Auth0: nested objects are replaced, `null` deletes a key. */
export function mergeMetadata(
  current: Record<string, unknown>,
  patch: Record<string, unknown> | null,
): Record<string, unknown> {
  if (patch === null) return {};
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

export function createManagementApi(deps: ManagementDeps) {
  const keys = createLocalJWKSet(deps.publicJwks);

  async function authorize(req: IncomingMessage, anyOf: string[]): Promise<void> {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new ApiError(401, 'Unauthorized', 'Missing authentication', 'missing_token');
    let scopes: string[];
    try {
      const { payload } = await jwtVerify(match[1], keys, {
        issuer: deps.issuer,
        audience: deps.managementAudience,
        algorithms: ['RS256'],
      });
      scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    } catch {
      throw new ApiError(401, 'Unauthorized', 'Invalid token', 'invalid_token');
    }
    if (!anyOf.some((scope) => scopes.includes(scope))) {
      throw new ApiError(
        403,
        'Forbidden',
        `Insufficient scope, expected any of: ${anyOf.join(',')}`,
        'insufficient_scope',
      );
    }
  }

  /** The body `handleManagement` read before the call was let through. */
  const received = new WeakMap<IncomingMessage, string>();

  async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
    try {
      return parseBody(req, received.get(req) ?? '');
    } catch (error) {
      if (error instanceof BodyError) throw badRequest(error.message);
      throw error;
    }
  }

  function userOr404(id: string) {
    const user = deps.users.findById(id);
    if (!user) throw notFound();
    return user;
  }

  /**
   * A write whose caller has already given up (its client timed out and closed the connection)
   * is not applied. Every function shares this process with the identity provider, so under load
   * a request can sit unread for seconds (13 s seen in the webhook-load soak); applied then, an
   * abandoned PATCH overwrites a newer one after every delivery has checked its work, and the
   * local bus retries a failed delivery within milliseconds. In AWS the failed delivery is retried
   * a minute later, long after Auth0 has applied or dropped the request (ADR 0031).
   */
  async function abandoned(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    // A request read late usually has its client's FIN right behind it in the socket's buffer;
    // the socket is seen closed one or two event-loop turns after the request itself.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    return res.closed || req.socket.destroyed;
  }

  function segment(raw: string): string {
    try {
      return decodeURIComponent(raw);
    } catch {
      throw badRequest('Path validation error: invalid id');
    }
  }

  const noOrganization = () =>
    new ApiError(404, 'Not Found', 'No organization found by that id or name', 'inexistent_organization');

  function organizationOr404(orgId: string): Organization {
    const organization = deps.organizations.find(orgId);
    if (!organization) throw noOrganization();
    return organization;
  }

  function rolesOr404(roleIds: string[]) {
    return roleIds.map((roleId) => {
      const role = deps.organizations.role(roleId);
      if (!role)
        throw new ApiError(404, 'Not Found', `The role does not exist: ${roleId}`, 'inexistent_role');
      return role;
    });
  }

  function memberOr404(orgId: string, userId: string) {
    const membership = deps.organizations.membership(orgId, userId);
    if (!membership) {
      throw new ApiError(
        404,
        'Not Found',
        'The user is not a member of the organization.',
        'inexistent_member',
      );
    }
    return membership;
  }

  const noContent = (res: ServerResponse) => {
    res.writeHead(204);
    res.end();
  };

  const invitationView = (invitation: Invitation) => structuredClone(invitation);

  /** `/api/v2/organizations…` and `/api/v2/roles`; false when no route matched. */
  async function routeOrganizations(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
    method: string,
  ): Promise<boolean> {
    const orgs = deps.organizations;

    if (path === '/api/v2/roles') {
      if (method === 'POST') {
        await authorize(req, ['create:roles']);
        const input = parse(createRoleBody, await body(req));
        if (orgs.roleByName(input.name)) {
          throw new ApiError(409, 'Conflict', 'Role name already exists', 'role_name_exists');
        }
        if (await abandoned(req, res)) return true;
        const role = orgs.createRole({ name: input.name, description: input.description ?? '' });
        sendJson(res, 200, role);
        return true;
      }
      if (method === 'GET') {
        await authorize(req, ['read:roles']);
        const nameFilter = url.searchParams.get('name_filter');
        const roles = orgs.roles().filter((role) => !nameFilter || role.name.includes(nameFilter));
        sendJson(res, 200, paged(url, roles, 'roles'));
        return true;
      }
      return false;
    }

    if (path === '/api/v2/organizations') {
      if (method === 'POST') {
        await authorize(req, ['create:organizations']);
        const input = parse(createOrganizationBody, await body(req));
        const exists = () =>
          new ApiError(
            409,
            'Conflict',
            'An organization with this name already exists.',
            'organization_conflict',
          );
        if (orgs.findByName(input.name)) throw exists();
        if (await abandoned(req, res)) return true;
        let organization: Organization;
        try {
          organization = orgs.create({
            name: input.name,
            ...(input.display_name === undefined ? {} : { display_name: input.display_name }),
            ...(input.branding === undefined ? {} : { branding: input.branding }),
            metadata: input.metadata ?? {},
          });
        } catch (error) {
          throw error instanceof OrganizationExistsError ? exists() : error;
        }
        sendJson(res, 201, toAuth0Organization(organization));
        return true;
      }
      if (method === 'GET') {
        await authorize(req, ['read:organizations']);
        sendJson(res, 200, paged(url, orgs.list().map(toAuth0Organization), 'organizations'));
        return true;
      }
      return false;
    }

    const byName = /^\/api\/v2\/organizations\/name\/([^/]+)$/.exec(path);
    if (byName?.[1] && method === 'GET') {
      await authorize(req, ['read:organizations']);
      const organization = orgs.findByName(segment(byName[1]));
      if (!organization) throw noOrganization();
      sendJson(res, 200, toAuth0Organization(organization));
      return true;
    }

    const match =
      /^\/api\/v2\/organizations\/([^/]+)(?:\/(members|invitations)(?:\/([^/]+)(?:\/(roles))?)?)?$/.exec(
        path,
      );
    if (!match?.[1]) return false;
    const orgId = segment(match[1]);
    const [, , collection, rawItem, roles] = match;
    const item = rawItem === undefined ? undefined : segment(rawItem);

    if (collection === undefined) {
      if (method === 'GET') {
        await authorize(req, ['read:organizations']);
        sendJson(res, 200, toAuth0Organization(organizationOr404(orgId)));
        return true;
      }
      if (method === 'PATCH') {
        await authorize(req, ['update:organizations']);
        const input = parse(patchOrganizationBody, await body(req));
        organizationOr404(orgId);
        if (input.name !== undefined) {
          const other = orgs.findByName(input.name);
          if (other && other.id !== orgId) {
            throw new ApiError(
              409,
              'Conflict',
              'An organization with this name already exists.',
              'organization_conflict',
            );
          }
        }
        if (await abandoned(req, res)) return true;
        const updated = orgs.update(orgId, (organization) => {
          if (input.name !== undefined) organization.name = input.name;
          if (input.display_name !== undefined) organization.display_name = input.display_name;
          if (input.branding === null) delete organization.branding;
          else if (input.branding !== undefined) organization.branding = input.branding;
          if (input.metadata !== undefined) {
            organization.metadata = mergeMetadata(organization.metadata, input.metadata) as Record<
              string,
              string
            >;
          }
        });
        if (!updated) throw noOrganization();
        sendJson(res, 200, toAuth0Organization(updated));
        return true;
      }
      if (method === 'DELETE') {
        await authorize(req, ['delete:organizations']);
        if (await abandoned(req, res)) return true;
        // Auth0 answers 204 whether or not the organization existed.
        orgs.delete(orgId);
        noContent(res);
        return true;
      }
      return false;
    }

    if (collection === 'members' && item === undefined) {
      if (method === 'GET') {
        const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
        const withRoles = fields.includes('roles') && url.searchParams.get('include_fields') !== 'false';
        await authorize(req, ['read:organization_members']);
        if (withRoles) await authorize(req, ['read:organization_member_roles']);
        organizationOr404(orgId);
        const members = orgs.members(orgId).flatMap((membership) => {
          const user = deps.users.findById(membership.user_id);
          if (!user) return [];
          const member = { user_id: user.user_id, picture: user.picture, name: user.name, email: user.email };
          if (!withRoles) return [member];
          const assigned = membership.roles.flatMap((roleId) => {
            const role = orgs.role(roleId);
            return role ? [{ id: role.id, name: role.name }] : [];
          });
          return [{ ...member, roles: assigned }];
        });
        sendJson(res, 200, paged(url, members, 'members'));
        return true;
      }
      if (method === 'POST' || method === 'DELETE') {
        await authorize(req, [
          method === 'POST' ? 'create:organization_members' : 'delete:organization_members',
        ]);
        const input = parse(membersBody, await body(req));
        organizationOr404(orgId);
        if (method === 'POST') for (const userId of input.members) userOr404(userId);
        if (await abandoned(req, res)) return true;
        if (method === 'POST') orgs.addMembers(orgId, input.members);
        else orgs.removeMembers(orgId, input.members);
        noContent(res);
        return true;
      }
      return false;
    }

    if (collection === 'members' && item !== undefined && roles === 'roles') {
      if (method === 'GET') {
        await authorize(req, ['read:organization_member_roles']);
        organizationOr404(orgId);
        const membership = memberOr404(orgId, item);
        const assigned = membership.roles.flatMap((roleId) => {
          const role = orgs.role(roleId);
          return role ? [role] : [];
        });
        sendJson(res, 200, paged(url, assigned, 'roles'));
        return true;
      }
      if (method === 'POST' || method === 'DELETE') {
        await authorize(req, [
          method === 'POST' ? 'create:organization_member_roles' : 'delete:organization_member_roles',
        ]);
        const input = parse(rolesBody, await body(req));
        organizationOr404(orgId);
        memberOr404(orgId, item);
        rolesOr404(input.roles);
        if (await abandoned(req, res)) return true;
        if (method === 'POST') orgs.assignRoles(orgId, item, input.roles);
        else orgs.removeRoles(orgId, item, input.roles);
        noContent(res);
        return true;
      }
      return false;
    }

    if (collection === 'invitations' && item === undefined) {
      if (method === 'GET') {
        await authorize(req, ['read:organization_invitations']);
        organizationOr404(orgId);
        sendJson(res, 200, paged(url, orgs.invitations(orgId).map(invitationView), 'invitations'));
        return true;
      }
      if (method === 'POST') {
        await authorize(req, ['create:organization_invitations']);
        const input = parse(createInvitationBody, await body(req));
        const organization = organizationOr404(orgId);
        if (input.client_id !== deps.invitationClient.clientId) {
          throw badRequest(
            `Payload validation error: client_id ${input.client_id} is not an application with a login URI`,
          );
        }
        const connectionId = input.connection_id ?? DATABASE_CONNECTION_ID;
        if (connectionId !== DATABASE_CONNECTION_ID) {
          throw new ApiError(404, 'Not Found', 'The connection does not exist.', 'inexistent_connection');
        }
        rolesOr404(input.roles ?? []);
        if (await abandoned(req, res)) return true;
        const ttl = input.ttl_sec ? input.ttl_sec : INVITATION_TTL_DEFAULT_SEC;
        const invitation = orgs.createInvitation(
          {
            organization_id: orgId,
            inviter: input.inviter,
            invitee: input.invitee,
            client_id: input.client_id,
            connection_id: connectionId,
            app_metadata: input.app_metadata ?? {},
            user_metadata: input.user_metadata ?? {},
            roles: input.roles ?? [],
          },
          ttl,
          (ticketId) => {
            const link = new URL(deps.invitationClient.initiateLoginUri);
            link.searchParams.set('invitation', ticketId);
            link.searchParams.set('organization', organization.id);
            link.searchParams.set('organization_name', organization.name);
            return link.href;
          },
        );
        if (input.send_invitation_email ?? true) {
          await deps.tickets.sendInvitationEmail(invitation, organization.display_name ?? organization.name);
        }
        sendJson(res, 201, invitationView(invitation));
        return true;
      }
      return false;
    }

    if (collection === 'invitations' && item !== undefined && roles === undefined) {
      if (method === 'GET') {
        await authorize(req, ['read:organization_invitations']);
        organizationOr404(orgId);
        const invitation = orgs.invitation(orgId, item);
        if (!invitation) {
          throw new ApiError(404, 'Not Found', 'The invitation does not exist.', 'inexistent_invitation');
        }
        sendJson(res, 200, invitationView(invitation));
        return true;
      }
      if (method === 'DELETE') {
        await authorize(req, ['delete:organization_invitations']);
        organizationOr404(orgId);
        if (await abandoned(req, res)) return true;
        if (orgs.invitation(orgId, item)) orgs.deleteInvitation(item);
        noContent(res);
        return true;
      }
    }
    return false;
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';

    if (path === '/api/v2/users' && method === 'POST') {
      await authorize(req, ['create:users']);
      const input = parse(createUserBody, await body(req));
      const exists = () => new ApiError(409, 'Conflict', 'The user already exists.', 'auth0_idp_error');
      if (deps.users.findByEmail(input.email)) throw exists();
      if (await abandoned(req, res)) return;
      const user = await deps.users
        .create({
          email: input.email,
          password: input.password,
          name: input.name,
          emailVerified: input.email_verified,
          appMetadata: input.app_metadata,
          userMetadata: input.user_metadata,
          blocked: input.blocked,
        })
        .catch((error: unknown) => {
          // Another create of the address finished while this one was hashing its password.
          throw error instanceof UserExistsError ? exists() : error;
        });
      if (input.nickname)
        deps.users.update(user.user_id, (u) => void Object.assign(u, { nickname: input.nickname }));
      if (input.verify_email && !user.email_verified) await deps.tickets.sendVerificationEmail(user);
      return sendJson(res, 201, toAuth0User(user));
    }

    if (path === '/api/v2/users-by-email' && method === 'GET') {
      await authorize(req, ['read:users']);
      const email = url.searchParams.get('email');
      if (!email) throw badRequest('Query validation error: email is required');
      const user = deps.users.findByEmail(email);
      return sendJson(res, 200, user ? [toAuth0User(user)] : []);
    }

    const userMatch = /^\/api\/v2\/users\/([^/]+)$/.exec(path);
    if (userMatch?.[1]) {
      let id: string;
      try {
        id = decodeURIComponent(userMatch[1]);
      } catch {
        throw badRequest('Path validation error: invalid user id');
      }
      if (method === 'GET') {
        await authorize(req, ['read:users']);
        return sendJson(res, 200, toAuth0User(userOr404(id)));
      }
      if (method === 'DELETE') {
        await authorize(req, ['delete:users']);
        if (await abandoned(req, res)) return;
        deps.users.delete(id);
        deps.organizations.removeUser(id);
        res.writeHead(204);
        res.end();
        return;
      }
      if (method === 'PATCH') {
        const raw = await body(req);
        const onlyMetadata = Object.keys(raw).every((k) => k === 'app_metadata' || k === 'user_metadata');
        await authorize(req, onlyMetadata ? ['update:users', 'update:users_app_metadata'] : ['update:users']);
        const input = parse(patchUserBody, raw);
        const existing = userOr404(id);
        if (input.email && input.email.toLowerCase() !== existing.email.toLowerCase()) {
          const other = deps.users.findByEmail(input.email);
          if (other && other.user_id !== id) {
            throw new ApiError(409, 'Conflict', 'The specified new email already exists', 'auth0_idp_error');
          }
        }
        const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
        if (await abandoned(req, res)) return;
        const updated = deps.users.update(id, (u) => {
          if (input.email !== undefined) {
            u.email = input.email;
            if (input.email_verified === undefined) u.email_verified = false;
          }
          if (input.email_verified !== undefined) u.email_verified = input.email_verified;
          if (input.name !== undefined) u.name = input.name;
          if (input.nickname !== undefined) u.nickname = input.nickname;
          if (input.blocked !== undefined) u.blocked = input.blocked;
          if (passwordHash !== undefined) u.password_hash = passwordHash;
          if (input.app_metadata !== undefined)
            u.app_metadata = mergeMetadata(u.app_metadata, input.app_metadata);
          if (input.user_metadata !== undefined) {
            u.user_metadata = mergeMetadata(u.user_metadata, input.user_metadata);
          }
        });
        if (!updated) throw notFound();
        if (input.verify_email && !updated.email_verified) await deps.tickets.sendVerificationEmail(updated);
        return sendJson(res, 200, toAuth0User(updated));
      }
    }

    if (path === '/api/v2/jobs/verification-email' && method === 'POST') {
      await authorize(req, ['update:users']);
      const input = parse(verificationJobBody, await body(req));
      const user = userOr404(input.user_id);
      if (await abandoned(req, res)) return;
      await deps.tickets.sendVerificationEmail(user, input.client_id);
      return sendJson(res, 201, {
        type: 'verification_email',
        status: 'pending',
        created_at: new Date().toISOString(),
        id: `job_${Math.random().toString(36).slice(2, 18)}`,
      });
    }

    if (path === '/api/v2/tickets/password-change' && method === 'POST') {
      await authorize(req, ['create:user_tickets']);
      const input = parse(passwordTicketBody, await body(req));
      let user = input.user_id ? deps.users.findById(input.user_id) : undefined;
      if (!input.user_id) {
        if (!input.email || !input.connection_id) {
          throw badRequest('Payload validation error: provide user_id, or email and connection_id');
        }
        user = deps.users.findByEmail(input.email);
      }
      if (!user) throw notFound();
      const ticket = deps.tickets.passwordChangeUrl(user, {
        resultUrl: input.result_url,
        ttlSec: input.ttl_sec,
        markEmailAsVerified: input.mark_email_as_verified,
        includeEmailInRedirect: input.includeEmailInRedirect,
        clientId: input.client_id,
      });
      return sendJson(res, 201, { ticket });
    }

    if (path.startsWith('/api/v2/organizations') || path.startsWith('/api/v2/roles')) {
      if (await routeOrganizations(req, res, url, path, method)) return;
    }
    const userOrganizations = /^\/api\/v2\/users\/([^/]+)\/organizations$/.exec(path);
    if (userOrganizations?.[1] && method === 'GET') {
      await authorize(req, ['read:organizations']);
      const user = userOr404(segment(userOrganizations[1]));
      return sendJson(
        res,
        200,
        paged(
          url,
          deps.organizations.organizationsOf(user.user_id).map(toAuth0Organization),
          'organizations',
        ),
      );
    }

    throw new ApiError(
      404,
      'Not Found',
      `No route for ${method} ${path} in the local Management API`,
      'not_found',
    );
  }

  return async function handleManagement(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      // Counted and let through (or answered 429) on arrival, as by Auth0's global bucket.
      if (deps.admit?.(req, res, url)) return;
      // Received whole before anything else, as by Auth0's front end: an injected fault (delay,
      // 429, 503) then acts on a call the server holds, like a slow or busy tenant.
      try {
        received.set(req, await readRawBody(req));
      } catch (error) {
        if (error instanceof BodyError) throw badRequest(error.message);
        throw error;
      }
      if (await deps.injectFault?.(res)) return;
      await route(req, res, url);
    } catch (error) {
      if (error instanceof ApiError) {
        sendJson(res, error.statusCode, {
          statusCode: error.statusCode,
          error: error.error,
          message: error.message,
          errorCode: error.errorCode,
        });
        return;
      }
      // A caller that gave up before its body was read: nobody is left to answer.
      if (res.closed || req.socket.destroyed) return;
      console.error('[idp] management API error', error);
      sendJson(res, 500, {
        statusCode: 500,
        error: 'Internal Server Error',
        message: (error as Error).message,
        errorCode: 'internal_error',
      });
    }
  };
}
