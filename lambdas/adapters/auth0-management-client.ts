import { ManagementClient, TokenProvider } from 'auth0';
import { VerificationEmailClient } from 'auth0/jobs/verificationEmail';
import { TicketsClient } from 'auth0/tickets';
import { UsersClient } from 'auth0/users';

export interface ManagementClientConfig {
  /** The Auth0 tenant domain, a bare host name (`tenant.eu.auth0.com`, or `localhost:4010` locally). */
  domain: string;
  clientId: string;
  clientSecret: string;
  /**
   * Where `https://<domain>` really lives, when that is not `https://<domain>` (the local identity
   * provider serves plain http on loopback). Token and Management API requests are sent there, and
   * the Management API audience becomes `<baseUrl>/api/v2/`. Unset in AWS.
   */
  baseUrl?: string | undefined;
}

/** Lambda-friendly limits: a slow or throttled tenant must not eat the whole invocation. */
const TIMEOUT_SECONDS = 8;
const MAX_RETRIES = 1;

function requestUrl(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/** A fetch that sends requests for `https://<domain>` to `baseUrl` instead. */
export function rebasingFetch(domain: string, baseUrl: string, inner: typeof fetch = fetch): typeof fetch {
  const from = `https://${domain}`;
  const to = baseUrl.replace(/\/+$/, '');
  return (input, init) => {
    const url = requestUrl(input);
    if (url !== from && !url.startsWith(`${from}/`)) return inner(input, init);
    const rebased = `${to}${url.slice(from.length)}`;
    return input instanceof Request ? inner(new Request(rebased, input), init) : inner(rebased, init);
  };
}

/**
 * The Management API client the backend uses (machine-to-machine credentials). The SDK caches its
 * client-credentials token per instance, so create one per container and reuse it.
 */
export function createManagementClient({
  domain,
  clientId,
  clientSecret,
  baseUrl,
}: ManagementClientConfig): ManagementClient {
  const rebase = baseUrl ? baseUrl.replace(/\/+$/, '') : undefined;
  return new ManagementClient({
    domain,
    clientId,
    clientSecret,
    timeoutInSeconds: TIMEOUT_SECONDS,
    maxRetries: MAX_RETRIES,
    ...(rebase ? { fetch: rebasingFetch(domain, rebase), audience: `${rebase}/api/v2/` } : {}),
  });
}

/**
 * The part of the Management API the Lambda functions use, as the `auth0` SDK's per-resource
 * clients. Structurally a subset of `ManagementClient`, so either can be passed where it is
 * expected; the lean one bundles to about a seventh of the size (docs/performance.md).
 */
export interface ManagementApi {
  users: Pick<UsersClient, 'get' | 'listUsersByEmail' | 'create' | 'update' | 'delete'>;
  tickets: Pick<TicketsClient, 'changePassword'>;
  jobs: { verificationEmail: Pick<VerificationEmailClient, 'create'> };
}

/**
 * Lean Management API access for Lambda: the SDK's own client-credentials `TokenProvider` (token
 * cached per instance until shortly before expiry) and the per-resource clients the backend needs.
 */
export function createManagementApi({
  domain,
  clientId,
  clientSecret,
  baseUrl,
}: ManagementClientConfig): ManagementApi {
  const rebase = baseUrl ? baseUrl.replace(/\/+$/, '') : undefined;
  const fetchImpl = rebase ? rebasingFetch(domain, rebase) : fetch;
  const tokens = new TokenProvider({
    domain,
    clientId,
    clientSecret,
    audience: rebase ? `${rebase}/api/v2/` : `https://${domain}/api/v2/`,
    fetch: fetchImpl,
  });
  const options = {
    baseUrl: `https://${domain}/api/v2`,
    token: () => tokens.getAccessToken(),
    fetch: fetchImpl,
    timeoutInSeconds: TIMEOUT_SECONDS,
    maxRetries: MAX_RETRIES,
  };
  return {
    users: new UsersClient(options),
    tickets: new TicketsClient(options),
    jobs: { verificationEmail: new VerificationEmailClient(options) },
  };
}
