import Provider, { errors, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { refreshTokenLifetimes } from '#contracts/session-lifetimes.ts';
import { ActionClaims } from './action-claims.ts';
import type { ActionRunner } from './action-runner.ts';
import { escapeHtml } from './http-util.ts';
import type { PrivateJwks } from './keys.ts';
import type { Organization, OrganizationStore } from './organization-store.ts';
import { registerPasswordGrant } from './password-grant.ts';
import { API_SCOPES, PASSWORD_REALM_GRANT } from './scopes.ts';
import type { StoredUser, UserStore } from './user-store.ts';

export const ACCESS_TOKEN_TTL = 3600;
/** Refresh tokens of applications that are not the web's (the tests' password-grant client). */
const OTHER_REFRESH_TOKEN_TTL = 30 * 24 * 3600;

/**
 * The web application's refresh tokens expire as provisioning configures them on Auth0 (ADR 0074):
 * each token lives the idle lifetime from its issue, and no token of a rotated family lives past the
 * absolute lifetime counted from the family's first token (`iiat`, which rotation carries over).
 * An exchange after either answers invalid_grant.
 */
export function spaRefreshTokenTtl(familyIssuedAt: number, now: number): number {
  const left = refreshTokenLifetimes.absoluteSeconds - (now - familyIssuedAt);
  return Math.max(1, Math.min(refreshTokenLifetimes.idleSeconds, left));
}

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
  /** Organizations (ADR 0081): `/authorize`'s `organization` and `invitation`, `org_id` in tokens. */
  organizations: OrganizationStore;
  actions: ActionRunner;
}

/** The grant a token request's code or refresh token belongs to (the login it came from). */
export function grantIdOf(ctx: KoaContextWithOIDC, token?: { grantId?: string }): string | undefined {
  const entities = ctx?.oidc?.entities ?? {};
  return token?.grantId ?? entities.AuthorizationCode?.grantId ?? entities.RefreshToken?.grantId;
}

/** Auth0's organization claims: `org_id`, and `org_name` (the tenant lets names be used at login). */
export function organizationClaims(organization: Organization | undefined): Record<string, string> {
  return organization ? { org_id: organization.id, org_name: organization.name } : {};
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
  const { issuer, audience, managementAudience, users, organizations } = settings;
  const clientNames = new Map([
    [settings.spa.clientId, 'Web app (local)'],
    ...settings.m2m.map((client) => [client.clientId, client.name] as const),
    [settings.test.clientId, 'Tests (local)'],
  ]);
  const actionClaims = new ActionClaims(users, settings.actions, clientNames, organizations);

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

  // A session's grant is for one organization (or none): a request for another one, or an
  // invitation not yet accepted in this request, goes through the interaction (membership checked,
  // a grant for that organization saved) instead of reusing the grant silently.
  const policy = interactionPolicy.base();
  policy.get('consent')?.checks.add(
    new interactionPolicy.Check(
      'organization_changed',
      'the request is for another organization than the grant, or carries an invitation',
      'interaction_required',
      (ctx: KoaContextWithOIDC) => {
        const params = ctx.oidc.params ?? {};
        if (params.invitation && !ctx.oidc.result) return interactionPolicy.Check.REQUEST_PROMPT;
        const requested = params.organization
          ? organizations.findByIdOrName(String(params.organization))
          : undefined;
        const granted = organizations.grantOrganization(ctx.oidc.grant?.jti);
        return requested?.id === granted?.id
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT;
      },
    ),
  );

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
    // Auth0's `/authorize` parameters for Organizations: an unknown organization, or an
    // invitation without its organization (or not of it, expired, or already accepted) is refused.
    extraParams: {
      organization: async (_ctx: KoaContextWithOIDC, value: string | undefined) => {
        if (value === undefined) return;
        if (!organizations.findByIdOrName(value)) {
          throw new errors.InvalidRequest(`parameter organization is invalid: ${value}`);
        }
      },
      invitation: async (ctx: KoaContextWithOIDC, value: string | undefined) => {
        if (value === undefined) return;
        const organization = organizations.findByIdOrName(String(ctx.oidc.params.organization ?? ''));
        if (!organization) throw new errors.InvalidRequest('an invitation needs its organization parameter');
        const invitation = organizations.invitationByTicket(value);
        if (!invitation || invitation.organization_id !== organization.id) {
          throw new errors.InvalidRequest('the invitation was not found, or was already accepted');
        }
        if (Date.parse(invitation.expires_at) <= Date.now()) {
          throw new errors.InvalidRequest('the invitation has expired');
        }
      },
    },
    routes: {
      authorization: '/authorize',
      token: '/oauth/token',
      revocation: '/oauth/revoke',
      end_session: '/v2/logout',
      jwks: '/.well-known/jwks.json',
      userinfo: '/userinfo',
    },
    interactions: {
      policy,
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
      RefreshToken: (_ctx: KoaContextWithOIDC, token: { iiat?: number }, client: { clientId: string }) => {
        if (client.clientId !== settings.spa.clientId) return OTHER_REFRESH_TOKEN_TTL;
        const now = Math.floor(Date.now() / 1000);
        return spaRefreshTokenTtl(token.iiat ?? now, now);
      },
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
      token: { kind: string; accountId?: string; clientId: string; grantId?: string },
    ) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const result = await actionClaims.forContext(ctx, token.accountId, token.clientId);
      const organization = organizations.grantOrganization(grantIdOf(ctx, token));
      return { ...result.accessTokenClaims, ...organizationClaims(organization) };
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
      const organization = organizations.grantOrganization(grantIdOf(ctx));
      return { ...base, ...result.idTokenClaims, ...organizationClaims(organization) };
    }
    return base;
  };

  // Auth0 answers a grant type the client may not use with 403 unauthorized_client, and a token
  // request an Action denied (`api.access.deny`, e.g. on a refresh-token exchange) with 403
  // access_denied and the Action's reason.
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    if (ctx.path === '/oauth/token' && ctx.body?.error === 'access_denied') ctx.status = 403;
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

  registerPasswordGrant(provider, { users, actionClaims, getResourceServerInfo });
  return { provider, actionClaims };
}
