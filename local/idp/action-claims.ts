import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { ActionResult, ActionRunner, TransactionProtocol } from './action-runner.ts';
import { PASSWORD_REALM_GRANT } from './scopes.ts';
import type { StoredUser, UserStore } from './user-store.ts';

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
