import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createContext, Script } from 'node:vm';
import type { Organization } from './organization-store.ts';
import { DATABASE_CONNECTION, type StoredUser, toAuth0User } from './user-store.ts';

/** The post-login Action that Auth0 runs, shared with the local IdP (docs/design.md section 7). */
export const POST_LOGIN_ACTION_PATH = fileURLToPath(
  new URL('../../lambdas/auth0-actions/post-login.cjs', import.meta.url),
);

export type TransactionProtocol =
  | 'oidc-basic-profile'
  | 'oauth2-refresh-token'
  | 'oauth2-password'
  | 'oauth2-resource-owner';

/** Auth0's `event.authentication.methods`: the factors the session completed, and when. */
export interface AuthenticationMethod {
  name: string;
  timestamp: string;
}

export interface ActionInput {
  user: StoredUser;
  client: { client_id: string; name: string };
  protocol: TransactionProtocol;
  requestedScopes: string[];
  audience?: string | undefined;
  /** What the session has completed (absent: Auth0 gave the Action no `event.authentication`). */
  authentication?: AuthenticationMethod[] | undefined;
  /** The organization the login is for (`/authorize`'s `organization`), absent otherwise. */
  organization?: Organization | undefined;
  /** The names of the user's roles for this login: their roles in `organization` (ADR 0083). */
  roles?: string[] | undefined;
}

export interface ActionResult {
  denied?: string | undefined;
  idTokenClaims: Record<string, unknown>;
  accessTokenClaims: Record<string, unknown>;
  /** Factors `api.multifactor.enable` asked for (recorded; the local IdP has no MFA). */
  multifactor: { provider: string; options?: unknown }[];
}

type ActionFn = (event: unknown, api: unknown) => Promise<void> | void;

/** Loads the Action file's text (re-read on every run so edits apply without a restart) and runs it in node:vm. */
export class ActionRunner {
  readonly #path: string;
  readonly #secrets: Record<string, string>;
  readonly multifactorLog: { user_id: string; provider: string }[] = [];

  constructor(secrets: Record<string, string>, path = POST_LOGIN_ACTION_PATH) {
    this.#path = path;
    this.#secrets = secrets;
  }

  #load(): ActionFn {
    const code = readFileSync(this.#path, 'utf8');
    const module = { exports: {} as Record<string, unknown> };
    const sandbox = createContext({
      module,
      exports: module.exports,
      console,
      URL,
      URLSearchParams,
      setTimeout,
      clearTimeout,
    });
    new Script(code, { filename: this.#path }).runInContext(sandbox, { timeout: 1000 });
    const fn = module.exports.onExecutePostLogin;
    if (typeof fn !== 'function') throw new Error(`${this.#path} does not export onExecutePostLogin`);
    return fn as ActionFn;
  }

  async run(input: ActionInput): Promise<ActionResult> {
    const result: ActionResult = { idTokenClaims: {}, accessTokenClaims: {}, multifactor: [] };
    const { user } = input;
    const event = {
      // The user as Auth0's Management API returns it, which is what a post-login event carries.
      user: toAuth0User(user),
      client: { ...input.client, metadata: {} },
      connection: { name: DATABASE_CONNECTION, strategy: 'auth0' },
      transaction: {
        protocol: input.protocol,
        requested_scopes: input.requestedScopes,
        ...(input.audience ? { requested_audience: input.audience } : {}),
      },
      resource_server: input.audience ? { identifier: input.audience } : undefined,
      ...(input.authentication ? { authentication: { methods: input.authentication } } : {}),
      // Auth0's `event.organization`: only on a login through an organization.
      ...(input.organization
        ? {
            organization: {
              id: input.organization.id,
              name: input.organization.name,
              display_name: input.organization.display_name ?? input.organization.name,
              metadata: { ...input.organization.metadata },
            },
          }
        : {}),
      // Auth0's `event.authorization.roles`: the names of the user's assigned roles, which on a
      // login through an organization are the member's roles in it.
      authorization: { roles: [...(input.roles ?? [])] },
      stats: { logins_count: user.logins_count },
      secrets: { ...this.#secrets },
      request: { ip: '127.0.0.1', hostname: 'localhost' },
      tenant: { id: 'local' },
    };
    const api = {
      access: {
        deny: (reason: string) => {
          result.denied = String(reason);
        },
      },
      idToken: {
        setCustomClaim: (name: string, value: unknown) => {
          result.idTokenClaims[name] = value;
        },
      },
      accessToken: {
        setCustomClaim: (name: string, value: unknown) => {
          result.accessTokenClaims[name] = value;
        },
        addScope: () => undefined,
        removeScope: () => undefined,
      },
      multifactor: {
        enable: (provider: string, options?: unknown) => {
          result.multifactor.push({ provider, options });
          this.multifactorLog.push({ user_id: user.user_id, provider });
        },
      },
      user: {
        setAppMetadata: () => undefined,
        setUserMetadata: () => undefined,
      },
    };
    await this.#load()(event, api);
    return result;
  }
}
