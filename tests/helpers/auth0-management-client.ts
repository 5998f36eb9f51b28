import { ManagementClient } from 'auth0';
import type { ManagementApiConfig } from '#lambdas/adapters/auth0-management-api.ts';

// The `auth0` SDK's full `ManagementClient`, pointed at a local identity provider when `baseUrl` is
// set: the test that proves the local IdP speaks the SDK's dialect uses it (provisioning builds its
// own, infra/auth0/provision). Lambda code reaches Auth0 through `createManagementApi`
// (lambdas/adapters/auth0-management-api.ts), which bundles no SDK (ADR 0010), so this lives
// with the tests, out of reach of the Lambda bundles.

export type ManagementClientConfig = Pick<
  ManagementApiConfig,
  'domain' | 'clientId' | 'clientSecret' | 'baseUrl'
>;

/** Limits for scripts: a slow or throttled tenant fails fast rather than waiting minutes. */
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
 * The SDK's `ManagementClient` with machine-to-machine credentials (it caches its token per
 * instance), pointed at `baseUrl` when that is set.
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
