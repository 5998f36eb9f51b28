import { ManagementClient } from 'auth0';

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
