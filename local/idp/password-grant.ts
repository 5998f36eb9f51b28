import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { type ActionClaims, completedFactors, passwordJustGiven } from './action-claims.ts';
import { API_SCOPES, PASSWORD_REALM_GRANT } from './scopes.ts';
import { DATABASE_CONNECTION, type UserStore } from './user-store.ts';

const OIDC_SCOPES = new Set(API_SCOPES);

/**
 * Auth0's resource owner password grants (`password` and the password-realm grant), with which the
 * tests' client signs in without the login page; the post-login Action runs as for any login.
 */
export function registerPasswordGrant(
  provider: Provider,
  deps: {
    users: UserStore;
    actionClaims: ActionClaims;
    getResourceServerInfo: (
      ctx: KoaContextWithOIDC,
      resource: string,
      client: { clientId: string },
    ) => Promise<Record<string, unknown>>;
  },
): void {
  const { users, actionClaims, getResourceServerInfo } = deps;

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
      passwordJustGiven(),
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
        amr: completedFactors(result),
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
