import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet, type JWK, jwtVerify } from 'jose';
import { z } from 'zod';
import { BodyError, parseBody, readRawBody, sendJson } from './http-util.ts';
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
