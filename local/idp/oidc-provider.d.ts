// Minimal ambient typings for oidc-provider 9 (the package ships none). Only what local/idp uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  // biome-ignore lint/suspicious/noExplicitAny: the library is untyped; contexts are Koa contexts
  export type KoaContextWithOIDC = any;

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId: string; uid: string; cookie: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface GrantInstance {
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void> | void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    registerGrantType(
      name: string,
      handler: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>,
      params?: string | string[] | Set<string>,
      dupes?: string | string[] | Set<string>,
    ): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    Client: { find(id: string): Promise<ClientInstance | undefined> };
    Grant: {
      new (fields: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    // biome-ignore lint/suspicious/noExplicitAny: token model classes
    AccessToken: any;
    // biome-ignore lint/suspicious/noExplicitAny: token model classes
    RefreshToken: any;
    // biome-ignore lint/suspicious/noExplicitAny: token model classes
    IdToken: any;
    // biome-ignore lint/suspicious/noExplicitAny: token model classes
    ResourceServer: any;
  }

  export interface ClientInstance {
    clientId: string;
    clientName?: string;
    grantTypeAllowed(type: string): boolean;
  }

  export const errors: {
    // biome-ignore lint/suspicious/noExplicitAny: error classes
    [name: string]: any;
  };

  export interface PolicyCheck {
    reason: string;
  }

  export const interactionPolicy: {
    base(): { get(name: string): { checks: { add(check: PolicyCheck): void } } | undefined } & unknown[];
    Check: {
      new (
        reason: string,
        description: string,
        error: string,
        check: (ctx: KoaContextWithOIDC) => boolean,
      ): PolicyCheck;
      REQUEST_PROMPT: true;
      NO_NEED_TO_PROMPT: false;
    };
  };

  export default Provider;
}
