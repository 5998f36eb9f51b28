import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type {
  ActionResult,
  ActionRunner,
  AuthenticationMethod,
  TransactionProtocol,
} from './action-runner.ts';
import type { Organization, OrganizationStore } from './organization-store.ts';
import { PASSWORD_REALM_GRANT } from './scopes.ts';
import type { StoredUser, UserStore } from './user-store.ts';

/**
 * The factors a login completed, as oidc-provider keeps them (`amr` on the session, the code and
 * the refresh token): the password, and the second factor when the Action asked for one. The local
 * provider has no second factor to ask: what the Action asked for counts as given (ADR 0074).
 */
export function completedFactors(result: ActionResult): string[] {
  return result.multifactor.length > 0 ? ['pwd', 'mfa'] : ['pwd'];
}

/** The first factor, just given: what Auth0's `event.authentication` holds when the Action runs at a login. */
export function passwordJustGiven(): AuthenticationMethod[] {
  return [{ name: 'pwd', timestamp: new Date().toISOString() }];
}

/** What a refresh token's session completed, and when (its `amr` at its `authTime`). */
function methodsOf(
  token: { amr?: unknown; authTime?: unknown } | undefined,
): AuthenticationMethod[] | undefined {
  if (!token || !Array.isArray(token.amr) || typeof token.authTime !== 'number') return undefined;
  const timestamp = new Date(token.authTime * 1000).toISOString();
  return token.amr.map((name) => ({ name: String(name), timestamp }));
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
    private readonly organizations?: OrganizationStore,
  ) {}

  async run(
    user: StoredUser,
    clientId: string,
    protocol: TransactionProtocol,
    scope: string | undefined,
    audience: string | undefined,
    authentication?: AuthenticationMethod[],
    organization?: Organization,
  ): Promise<ActionResult> {
    // Auth0 applies a member's organization roles when they log in through the organization
    // (event.authorization.roles); the local provider assigns no tenant-wide roles to users.
    const membership = organization
      ? this.organizations?.membership(organization.id, user.user_id)
      : undefined;
    const roles = (membership?.roles ?? []).flatMap((roleId) => {
      const role = this.organizations?.role(roleId);
      return role ? [role.name] : [];
    });
    return this.actions.run({
      organization,
      roles,
      user,
      client: { client_id: clientId, name: this.clientNames.get(clientId) ?? clientId },
      protocol,
      requestedScopes: (scope ?? '').split(' ').filter(Boolean),
      audience,
      authentication,
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
      protocol === 'oauth2-refresh-token' ? methodsOf(ctx.oidc?.entities?.RefreshToken) : passwordJustGiven(),
      // A code or a refresh token keeps the organization of the login it came from.
      this.organizations?.grantOrganization(
        ctx.oidc?.entities?.AuthorizationCode?.grantId ?? ctx.oidc?.entities?.RefreshToken?.grantId,
      ),
    );
    if (result.denied !== undefined) throw new errors.AccessDenied(result.denied);
    return result;
  }
}
