import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { ActionResult, ActionRunner, TransactionProtocol } from './action-runner.ts';
import { escapeHtml } from './http-util.ts';
import type { PrivateJwks } from './keys.ts';
import { DATABASE_CONNECTION, type StoredUser, type UserStore } from './user-store.ts';

export const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';
/** Scopes an access token for the product API carries (Auth0 puts the OIDC scopes there too). */
const API_SCOPES = ['openid', 'profile', 'email', 'offline_access'];
const OIDC_SCOPES = new Set(API_SCOPES);
export const ACCESS_TOKEN_TTL = 3600;

export interface M2mClient {
  clientId: string;
  clientSecret: string;
  name: string;
  /** Its client grant on the Management API: a token carries these scopes and no others. */
  scopes: readonly string[];
}

export interface ProviderSettings {
  issuer: string;
  audience: string;
  managementAudience: string;
  spa: { clientId: string; redirectUris: string[]; postLogoutRedirectUris: string[] };
  /** Machine-to-machine applications, each granted its own Management API scopes (as on Auth0). */
  m2m: M2mClient[];
  test: { clientId: string; clientSecret: string };
  jwks: PrivateJwks;
  /** Sign the session cookies; kept across restarts with the sessions they name. */
  cookieKeys: string[];
  /** oidc-provider's storage adapter class (file-adapter.ts); the library's in-memory one when absent. */
  adapter?: unknown;
  users: UserStore;
  actions: ActionRunner;
}

/** Runs the post-login Action once per token request (memoised on the Koa context). */
export class ActionClaims {
  readonly #perRequest = new WeakMap<object, Promise<ActionResult>>();
  // Results of the Action run at interactive login, consumed by the code exchange that follows.
  readonly #fromLogin = new Map<string, { result: ActionResult; expires: number }>();

  constructor(
    private readonly users: UserStore,
    private readonly actions: ActionRunner,
    private readonly clientNames: Map<string, string>,
  ) {}

  async run(
    user: StoredUser,
    clientId: string,
    protocol: TransactionProtocol,
    scope: string | undefined,
    audience: string | undefined,
  ): Promise<ActionResult> {
    return this.actions.run({
      user,
      client: { client_id: clientId, name: this.clientNames.get(clientId) ?? clientId },
      protocol,
      requestedScopes: (scope ?? '').split(' ').filter(Boolean),
      audience,
    });
  }

  rememberLogin(accountId: string, clientId: string, result: ActionResult): void {
    this.#fromLogin.set(`${accountId} ${clientId}`, { result, expires: Date.now() + 10 * 60_000 });
  }

  forContext(ctx: KoaContextWithOIDC, accountId: string, clientId: string): Promise<ActionResult> {
    let pending = this.#perRequest.get(ctx);
    if (!pending) {
      pending = this.#compute(ctx, accountId, clientId);
      this.#perRequest.set(ctx, pending);
    }
    return pending;
  }

  seed(ctx: KoaContextWithOIDC, result: ActionResult): void {
    this.#perRequest.set(ctx, Promise.resolve(result));
  }

  async #compute(ctx: KoaContextWithOIDC, accountId: string, clientId: string): Promise<ActionResult> {
    const grantType: string | undefined = ctx.oidc?.params?.grant_type;
    if (grantType === 'authorization_code') {
      const key = `${accountId} ${clientId}`;
      const remembered = this.#fromLogin.get(key);
      this.#fromLogin.delete(key);
      if (remembered && remembered.expires > Date.now()) return remembered.result;
    }
    const user = this.users.findById(accountId);
    if (!user) throw new errors.InvalidGrant('user not found');
    if (user.blocked) throw new errors.InvalidGrant('user is blocked');
    const protocol: TransactionProtocol =
      grantType === 'refresh_token'
        ? 'oauth2-refresh-token'
        : grantType === 'password' || grantType === PASSWORD_REALM_GRANT
          ? 'oauth2-password'
          : 'oidc-basic-profile';
    const result = await this.run(
      user,
      clientId,
      protocol,
      ctx.oidc?.params?.scope,
      ctx.oidc?.params?.resource,
    );
    if (result.denied !== undefined) throw new errors.AccessDenied(result.denied);
    return result;
  }
}

function standardClaims(user: StoredUser): Record<string, unknown> {
  return {
    sub: user.user_id,
    name: user.name,
    nickname: user.nickname,
    picture: user.picture,
    updated_at: user.updated_at,
    email: user.email,
    email_verified: user.email_verified,
  };
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}</style></head>
<body><main>${body}</main></body></html>`;
}

export function createProvider(settings: ProviderSettings): {
  provider: Provider;
  actionClaims: ActionClaims;
} {
  const { issuer, audience, managementAudience, users } = settings;
  const clientNames = new Map([
    [settings.spa.clientId, 'Web app (local)'],
    ...settings.m2m.map((client) => [client.clientId, client.name] as const),
    [settings.test.clientId, 'Tests (local)'],
  ]);
  const actionClaims = new ActionClaims(users, settings.actions, clientNames);

  async function getResourceServerInfo(
    _ctx: KoaContextWithOIDC,
    resource: string,
    client: { clientId: string },
  ) {
    const m2m = settings.m2m.find((candidate) => candidate.clientId === client.clientId);
    if (resource === audience && m2m === undefined) {
      return {
        audience,
        scope: API_SCOPES.join(' '),
        accessTokenTTL: ACCESS_TOKEN_TTL,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      };
    }
    if (resource === managementAudience && m2m !== undefined) {
      return {
        audience: managementAudience,
        scope: m2m.scopes.join(' '),
        accessTokenTTL: 86400,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      };
    }
    throw new errors.InvalidTarget(`Service not found or not authorized for this client: ${resource}`);
  }

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: settings.spa.clientId,
        client_name: clientNames.get(settings.spa.clientId),
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: settings.spa.redirectUris,
        post_logout_redirect_uris: settings.spa.postLogoutRedirectUris,
      },
      ...settings.m2m.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        client_name: client.name,
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
      })),
      {
        client_id: settings.test.clientId,
        client_secret: settings.test.clientSecret,
        client_name: clientNames.get(settings.test.clientId),
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['password', PASSWORD_REALM_GRANT, 'refresh_token'],
        response_types: [],
        redirect_uris: [],
      },
    ],
    jwks: settings.jwks,
    cookies: { keys: settings.cookieKeys },
    ...(settings.adapter ? { adapter: settings.adapter } : {}),
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: {
      openid: ['sub'],
      profile: ['name', 'nickname', 'picture', 'updated_at'],
      email: ['email', 'email_verified'],
    },
    conformIdTokenClaims: false,
    routes: {
      authorization: '/authorize',
      token: '/oauth/token',
      revocation: '/oauth/revoke',
      end_session: '/v2/logout',
      jwks: '/.well-known/jwks.json',
      userinfo: '/userinfo',
    },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/u/login/${interaction.uid}`,
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // Auth0 logs out without asking: submit oidc-provider's confirmation form automatically.
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          const autoForm = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
          ctx.type = 'html';
          ctx.body = page(
            'Signing out',
            `<p>Signing you out…</p>${autoForm}<noscript><button type="submit" form="op.logoutForm">Continue</button></noscript>
<script>document.getElementById('op.logoutForm').submit();</script>`,
          );
        },
        postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
          ctx.type = 'html';
          ctx.body = page('Signed out', '<h1>Signed out</h1><p>You have been signed out.</p>');
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: KoaContextWithOIDC, _client: unknown, oneOf?: string[]) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo,
      },
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      ClientCredentials: 86400,
      IdToken: 36000,
      Interaction: 3600,
      RefreshToken: 30 * 24 * 3600,
      Session: 14 * 24 * 3600,
      Grant: 30 * 24 * 3600,
    },
    rotateRefreshToken: true,
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string, client: { redirectUris: string[] }) =>
      client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
    findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => {
      const user = users.findById(sub);
      if (!user || user.blocked) return undefined;
      return {
        accountId: user.user_id,
        claims: async () => {
          const current = users.findById(sub) ?? user;
          return {
            ...standardClaims(current),
            updated_at: Math.floor(Date.parse(current.updated_at) / 1000),
          };
        },
      };
    },
    extraTokenClaims: async (
      ctx: KoaContextWithOIDC,
      token: { kind: string; accountId?: string; clientId: string },
    ) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const result = await actionClaims.forContext(ctx, token.accountId, token.clientId);
      return result.accessTokenClaims;
    },
    formats: {
      customizers: {
        jwt: async (
          _ctx: KoaContextWithOIDC,
          token: { kind: string; clientId: string },
          jwt: { payload: Record<string, unknown> },
        ) => {
          jwt.payload.azp = token.clientId;
          if (token.kind === 'ClientCredentials') {
            jwt.payload.sub = `${token.clientId}@clients`;
            jwt.payload.gty = 'client-credentials';
          }
        },
      },
    },
    renderError: async (ctx: KoaContextWithOIDC, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = page(
        'Something went wrong',
        `<h1>Something went wrong</h1>${Object.entries(out)
          .map(([k, v]) => `<p><strong>${escapeHtml(k)}</strong>: ${escapeHtml(v)}</p>`)
          .join('')}`,
      );
    },
  });

  // ID tokens: add the Action's namespaced claims (oidc-provider only passes claims tied to a scope).
  const originalPayload = provider.IdToken.prototype.payload;
  provider.IdToken.prototype.payload = async function payload(this: {
    ctx?: KoaContextWithOIDC;
    available: { sub?: string };
    client?: { clientId: string };
  }) {
    const base = await originalPayload.call(this);
    const { ctx, available, client } = this;
    if (ctx?.oidc?.route === 'token' && available.sub && client) {
      const result = await actionClaims.forContext(ctx, available.sub, client.clientId);
      return { ...base, ...result.idTokenClaims };
    }
    return base;
  };

  // Auth0 answers a grant type the client may not use with 403 unauthorized_client.
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    if (
      ctx.path === '/oauth/token' &&
      ctx.body?.error === 'invalid_request' &&
      ctx.body?.error_description === 'requested grant type is not allowed for this client'
    ) {
      ctx.status = 403;
      ctx.body = {
        error: 'unauthorized_client',
        error_description: `Grant type '${ctx.oidc?.params?.grant_type}' not allowed for the client.`,
      };
    }
  });

  registerPasswordGrant(provider, settings, actionClaims, getResourceServerInfo);
  return { provider, actionClaims };
}

function registerPasswordGrant(
  provider: Provider,
  settings: ProviderSettings,
  actionClaims: ActionClaims,
  getResourceServerInfo: (
    ctx: KoaContextWithOIDC,
    resource: string,
    client: { clientId: string },
  ) => Promise<Record<string, unknown>>,
): void {
  const { users } = settings;

  async function handler(ctx: KoaContextWithOIDC): Promise<void> {
    const { params, client } = ctx.oidc;
    const username: string | undefined = params.username;
    const password: string | undefined = params.password;
    if (!username || !password) {
      throw new errors.InvalidRequest('missing required parameters: username and password');
    }
    if (params.grant_type === PASSWORD_REALM_GRANT && params.realm && params.realm !== DATABASE_CONNECTION) {
      throw new errors.InvalidRequest(`connection ${params.realm} does not exist`);
    }
    const user = await users.authenticate(username, password);
    if (!user) {
      ctx.status = 403;
      ctx.body = { error: 'invalid_grant', error_description: 'Wrong email or password.' };
      return;
    }
    if (user.blocked) {
      ctx.status = 401;
      ctx.body = { error: 'unauthorized', error_description: 'user is blocked' };
      return;
    }

    const scopes = [
      ...new Set(
        String(params.scope ?? 'openid')
          .split(' ')
          .filter(Boolean),
      ),
    ].filter((s) => OIDC_SCOPES.has(s));
    const resource: string | undefined = params.resource || undefined;

    const result = await actionClaims.run(
      user,
      client.clientId,
      'oauth2-password',
      scopes.join(' '),
      resource,
    );
    if (result.denied !== undefined) {
      ctx.status = 403;
      ctx.body = { error: 'access_denied', error_description: result.denied };
      return;
    }
    actionClaims.seed(ctx, result);
    users.recordLogin(user.user_id);

    const grant = new provider.Grant({ accountId: user.user_id, clientId: client.clientId });
    grant.addOIDCScope(scopes.join(' '));
    let resourceServer: { scopes: Set<string> } | undefined;
    if (resource) {
      resourceServer = new provider.ResourceServer(
        resource,
        await getResourceServerInfo(ctx, resource, client),
      ) as { scopes: Set<string> };
      grant.addResourceScope(resource, scopes.filter((s) => resourceServer?.scopes.has(s)).join(' '));
    }
    const grantId = await grant.save();

    const at = new provider.AccessToken({
      accountId: user.user_id,
      client,
      grantId,
      gty: 'password',
      expiresWithSession: false,
    });
    if (resourceServer) {
      at.resourceServer = resourceServer;
      at.scope = scopes.filter((s) => resourceServer?.scopes.has(s)).join(' ') || undefined;
    } else {
      at.scope = scopes.join(' ');
    }
    ctx.oidc.entity('AccessToken', at);
    const accessToken: string = await at.save();

    let refreshToken: string | undefined;
    if (scopes.includes('offline_access') && client.grantTypeAllowed('refresh_token')) {
      const rt = new provider.RefreshToken({
        accountId: user.user_id,
        client,
        grantId,
        gty: 'password',
        scope: scopes.join(' '),
        resource,
        rotations: 0,
        expiresWithSession: false,
        authTime: Math.floor(Date.now() / 1000),
      });
      ctx.oidc.entity('RefreshToken', rt);
      refreshToken = await rt.save();
    }

    let idToken: string | undefined;
    if (scopes.includes('openid')) {
      const claims: Record<string, unknown> = { sub: user.user_id };
      if (scopes.includes('profile')) {
        Object.assign(claims, {
          name: user.name,
          nickname: user.nickname,
          picture: user.picture,
          updated_at: Math.floor(Date.parse(user.updated_at) / 1000),
        });
      }
      if (scopes.includes('email'))
        Object.assign(claims, { email: user.email, email_verified: user.email_verified });
      const token = new provider.IdToken(claims, { ctx });
      token.scope = scopes.join(' ');
      token.set('auth_time', Math.floor(Date.now() / 1000));
      idToken = await token.issue({ use: 'idtoken' });
    }

    ctx.body = {
      access_token: accessToken,
      ...(idToken ? { id_token: idToken } : {}),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: scopes.join(' '),
      expires_in: at.expiration,
      token_type: 'Bearer',
    };
  }

  const parameters = ['username', 'password', 'scope', 'resource', 'realm'];
  provider.registerGrantType('password', handler, parameters);
  provider.registerGrantType(PASSWORD_REALM_GRANT, handler, parameters);
}
