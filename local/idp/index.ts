import { createServer, IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SesMailer } from '#lambdas/adapters/ses-mailer.ts';
import { createFaultKnob, faultSchemas, handleFaultControl } from '#local/faults.ts';
import { listen } from '#local/http.ts';
import { ActionRunner } from './action-runner.ts';
import { fileAdapter, loadOrCreateCookieKeys } from './file-adapter.ts';
import { BodyError, contentType, readRawBody, sendJson } from './http-util.ts';
import { loadOrCreateSigningKeys, publicJwks } from './keys.ts';
import { createManagementApi } from './management-api.ts';
import { OrganizationStore } from './organization-store.ts';
import {
  handleChangePasswordApi,
  handleEmailVerification,
  handleForgotPassword,
  handleInteraction,
  handlePasswordReset,
  handleSignupApi,
} from './pages.ts';
import { createProvider, type M2mClient } from './provider.ts';
import {
  createManagementApiStats,
  type ManagementApiPlan,
  managementApiStatsPath,
  rateLimitedBody,
  rateLimitHeaders,
  TokenBucket,
} from './rate-limit.ts';
import { MANAGEMENT_SCOPES } from './scopes.ts';
import { TicketService } from './tickets.ts';
import { hashPassword, UserStore } from './user-store.ts';

export interface IdpSeedUser {
  email: string;
  password: string;
  name: string;
  emailVerified: boolean;
  appMetadata: Record<string, unknown>;
}

export interface IdpOptions {
  port: number;
  audience: string;
  claimsNamespace: string;
  spa: {
    clientId: string;
    redirectUris: string[];
    postLogoutRedirectUris: string[];
    /**
     * The application's "Application Login URI" (Auth0's `initiate_login_uri`), where an
     * organization invitation's link leads; the first redirect URI's origin + `/auth/login` (the
     * web's login route) when absent.
     */
    initiateLoginUri?: string;
  };
  /** Machine-to-machine applications with the Management API scopes each is granted. */
  m2m: M2mClient[];
  test: { clientId: string; clientSecret: string };
  dataDir: string;
  ses: { endpoint: string; region: string; from: string };
  seedUsers?: IdpSeedUser[];
  /**
   * Tenant roles created at start when missing (by name): what provisioning creates on Auth0
   * (`infra/auth0/provision/desired.ts`), such as the organization roles (ADR 0083).
   */
  seedRoles?: { name: string; description: string }[];
  /**
   * The tenant's Management API quota (ADR 0061): one token bucket that every caller shares.
   * `auth0Plans` in `rate-limit.ts` holds Auth0's plans; `LOCAL_AUTH0_PLAN` picks one for `npm start`.
   */
  managementApiPlan: ManagementApiPlan;
}

export interface RunningIdp {
  issuer: string;
  url: string;
  close(): Promise<void>;
}

/** Upserts the seed users by email (password, name, verification flag and app_metadata are set). */
async function seed(users: UserStore, seedUsers: IdpSeedUser[]): Promise<void> {
  for (const s of seedUsers) {
    const existing = users.findByEmail(s.email);
    if (!existing) {
      await users.create({
        email: s.email,
        password: s.password,
        name: s.name,
        emailVerified: s.emailVerified,
        appMetadata: s.appMetadata,
      });
      continue;
    }
    const passwordHash = await hashPassword(s.password);
    users.update(existing.user_id, (u) => {
      u.password_hash = passwordHash;
      u.name = s.name;
      u.email_verified = s.emailVerified;
      u.app_metadata = structuredClone(s.appMetadata);
      u.blocked = false;
    });
  }
}

/**
 * Translates an Auth0-style `/oauth/token` request into what oidc-provider understands: JSON bodies
 * become form bodies, `audience` becomes the `resource` indicator, HTTP Basic client credentials
 * become `client_secret_post` parameters, and a client_credentials request for the Management API
 * without `scope` gets every granted scope (Auth0 behaviour). Returns a fresh request stream.
 */
async function translateTokenRequest(
  req: IncomingMessage,
  managementAudience: string,
  managementAliases: string[],
): Promise<IncomingMessage> {
  const raw = await readRawBody(req);
  const type = contentType(req);
  const params = new Map<string, string>();
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      throw new BodyError('failed to parse the JSON request body');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new BodyError('the JSON request body must be an object');
    }
    for (const [key, value] of Object.entries(parsed)) {
      if (value === undefined || value === null) continue;
      params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
  } else {
    for (const [key, value] of new URLSearchParams(raw)) params.set(key, value);
  }

  const headers = { ...req.headers };
  const auth = headers.authorization;
  if (auth && /^Basic\s/i.test(auth)) {
    const decoded = Buffer.from(auth.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0 && !params.has('client_id')) {
      params.set('client_id', decodeURIComponent(decoded.slice(0, colon)));
      params.set('client_secret', decodeURIComponent(decoded.slice(colon + 1)));
    }
    delete headers.authorization;
  }
  const audience = params.get('audience');
  params.delete('audience');
  if (audience && !params.has('resource')) params.set('resource', audience);
  const resource = params.get('resource');
  if (resource && managementAliases.includes(resource)) params.set('resource', managementAudience);
  if (
    params.get('grant_type') === 'client_credentials' &&
    params.get('resource') === managementAudience &&
    !params.get('scope')
  ) {
    params.set('scope', MANAGEMENT_SCOPES.join(' '));
  }

  const body = new URLSearchParams([...params]).toString();
  const clone = new IncomingMessage(req.socket);
  clone.method = req.method ?? 'POST';
  clone.url = req.url ?? '/oauth/token';
  clone.httpVersion = req.httpVersion;
  clone.headers = {
    ...headers,
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(Buffer.byteLength(body)),
  };
  // Parsed in full already: without `complete`, destroying the clone would tear down the socket.
  clone.complete = true;
  clone.push(body);
  clone.push(null);
  return clone;
}

/** Auth0's `/authorize` parameters → oidc-provider's. */
function translateAuthorizeUrl(url: URL): string {
  const params = url.searchParams;
  const audience = params.get('audience');
  if (audience) {
    params.delete('audience');
    if (!params.has('resource')) params.set('resource', audience);
  }
  // oidc-provider drops offline_access unless prompt=consent (spec behaviour); Auth0 does not need it.
  const scopes = (params.get('scope') ?? '').split(' ');
  if (scopes.includes('offline_access')) {
    const prompts = (params.get('prompt') ?? '').split(' ').filter(Boolean);
    if (!prompts.includes('none') && !prompts.includes('consent')) {
      params.set('prompt', [...prompts, 'consent'].join(' '));
    }
  }
  return `${url.pathname}?${params.toString()}`;
}

/** Auth0's `/v2/logout?client_id&returnTo` → oidc-provider's end-session parameters. */
function translateLogoutUrl(url: URL): string {
  const params = url.searchParams;
  const returnTo = params.get('returnTo');
  if (returnTo) {
    params.delete('returnTo');
    if (!params.has('post_logout_redirect_uri')) params.set('post_logout_redirect_uri', returnTo);
  }
  params.delete('federated');
  const query = params.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

export async function startIdp(options: IdpOptions): Promise<RunningIdp> {
  const url = `http://localhost:${options.port}`;
  const issuer = `${url}/`;
  const managementAudience = `${issuer}api/v2/`;
  // The auth0 SDK derives the audience from https://<domain>/api/v2/; accept it as the same API.
  const managementAliases = [
    `https://localhost:${options.port}/api/v2/`,
    `http://127.0.0.1:${options.port}/api/v2/`,
  ];

  const jwks = await loadOrCreateSigningKeys(options.dataDir);
  const storage = fileAdapter(join(options.dataDir, 'oidc'));
  const users = new UserStore(options.dataDir);
  const organizations = new OrganizationStore(options.dataDir);
  await seed(users, options.seedUsers ?? []);
  for (const role of options.seedRoles ?? []) {
    if (!organizations.roleByName(role.name)) organizations.createRole(role);
  }
  const ses = new SESv2Client({
    endpoint: options.ses.endpoint,
    region: options.ses.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 2,
  });
  const mailer = new SesMailer(ses, options.ses.from);
  const tickets = new TicketService(issuer, users, mailer);
  const actions = new ActionRunner({ CLAIMS_NAMESPACE: options.claimsNamespace, AUDIENCE: options.audience });
  const { provider, actionClaims } = createProvider({
    issuer,
    audience: options.audience,
    managementAudience,
    spa: options.spa,
    m2m: options.m2m,
    test: options.test,
    jwks,
    cookieKeys: await loadOrCreateCookieKeys(options.dataDir),
    adapter: storage.Adapter,
    users,
    organizations,
    actions,
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) => console.error('[idp] server_error', error));

  const oidc = provider.callback();
  const management = createManagementApi({
    issuer,
    managementAudience,
    publicJwks: publicJwks(jwks),
    users,
    tickets,
    organizations,
    invitationClient: {
      clientId: options.spa.clientId,
      initiateLoginUri:
        options.spa.initiateLoginUri ??
        `${new URL(options.spa.redirectUris[0] ?? `${url}/callback`).origin}/auth/login`,
    },
    admit: admitManagementCall,
    injectFault: injectManagementFault,
  });
  const pageDeps = { provider, users, tickets, actionClaims, organizations };
  // Fault knob of the Management API (ADR 0035): `POST /__local/faults` with `{ managementApi }`.
  const managementFaults = createFaultKnob(faultSchemas.managementApi);
  // The tenant's one Management API quota, shared by every M2M client (ADR 0061), and its counters.
  const managementBucket = new TokenBucket(options.managementApiPlan);
  const managementStats = createManagementApiStats(options.managementApiPlan.name);

  /**
   * Counts the call, and answers it 429 as Auth0 does when the tenant's bucket is empty (true);
   * otherwise the answer, whatever it is, carries the bucket's `x-ratelimit-*` headers.
   */
  function admitManagementCall(req: IncomingMessage, res: ServerResponse, requestUrl: URL): boolean {
    managementStats.received({
      method: req.method ?? 'GET',
      path: requestUrl.pathname,
      authorization: req.headers.authorization,
    });
    const answer = managementBucket.take();
    if (!answer.allowed) {
      managementStats.limited();
      sendJson(res, 429, rateLimitedBody, rateLimitHeaders(answer));
      return true;
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(answer))) res.setHeader(name, value);
    return false;
  }

  /** Answers the call with an injected fault when the knob's dice say so; true when it did. */
  async function injectManagementFault(res: ServerResponse): Promise<boolean> {
    const faults = managementFaults.config;
    if (!faults) return false;
    if (faults.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.delayMs));
    if (managementFaults.roll(faults.rateLimitRate, 'rateLimited')) {
      // On top of the bucket (which let this call through): counted as rate limited all the same.
      managementStats.limited();
      const now = Math.floor(Date.now() / 1000);
      sendJson(
        res,
        429,
        rateLimitedBody,
        rateLimitHeaders({
          limit: options.managementApiPlan.burst,
          remaining: 0,
          reset: now + faults.rateLimitResetSeconds,
        }),
      );
      return true;
    }
    // The share of 503s is drawn from the calls that were not rate limited, so the two rates add up.
    if (
      managementFaults.roll(faults.unavailableRate / Math.max(1e-9, 1 - faults.rateLimitRate), 'unavailable')
    ) {
      res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'Injected fault' }));
      return true;
    }
    return false;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? '/', url);
    const path = requestUrl.pathname;
    const method = req.method ?? 'GET';

    if (await handleFaultControl(req, res, path, { managementApi: managementFaults })) return;
    if (path === managementApiStatsPath) {
      if (method === 'GET') return sendJson(res, 200, managementStats.snapshot());
      if (method === 'DELETE') {
        // Answers the counts as they were, so a reader can take a phase's figures and start afresh.
        const before = managementStats.snapshot();
        managementStats.reset();
        return sendJson(res, 200, before);
      }
      return sendJson(res, 405, { message: 'Method Not Allowed' });
    }
    if (path.startsWith('/api/v2/')) {
      return management(req, res, requestUrl);
    }
    const login = /^\/u\/login\/([\w-]+)$/.exec(path);
    if (login?.[1]) return handleInteraction(pageDeps, req, res, login[1]);
    if (path === '/u/email-verification' && method === 'GET') {
      return handleEmailVerification(pageDeps, requestUrl, res);
    }
    if (path === '/lo/reset') return handlePasswordReset(pageDeps, req, res, requestUrl);
    if (path === '/u/reset-password') return handleForgotPassword(pageDeps, req, res, requestUrl);
    if (path === '/dbconnections/change_password' && method === 'POST') {
      return handleChangePasswordApi(pageDeps, req, res);
    }
    if (path === '/dbconnections/signup' && method === 'POST') return handleSignupApi(req, res);

    if (path === '/authorize' && method === 'GET') req.url = translateAuthorizeUrl(requestUrl);
    if (path === '/v2/logout' && method === 'GET') req.url = translateLogoutUrl(requestUrl);
    if ((path === '/oauth/token' || path === '/oauth/revoke') && method === 'POST') {
      let translated: IncomingMessage;
      try {
        translated = await translateTokenRequest(req, managementAudience, managementAliases);
      } catch (error) {
        if (error instanceof BodyError) {
          return sendJson(res, 400, { error: 'invalid_request', error_description: error.message });
        }
        throw error;
      }
      oidc(translated, res);
      return;
    }
    oidc(req, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('[idp] request failed', error);
      if (!res.headersSent)
        sendJson(res, 500, { error: 'server_error', error_description: 'internal error' });
      else res.end();
    });
  });
  await listen(server, options.port);

  return {
    issuer,
    url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await storage.flushed();
      ses.destroy();
    },
  };
}
