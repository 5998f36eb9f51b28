// The response headers of the site, in one place: the local static server sends them and infra
// mirrors them in the CloudFront response headers policy (DESIGN section 10).
import type { WebConfig } from '#contracts/web-config.ts';

export interface SecurityHeaderOptions {
  /** CSP sources for inline scripts, as written by the build in `csp-hashes.json`. */
  scriptHashes: readonly string[];
  config: WebConfig;
}

/** Origin of the identity provider the SPA talks to (token, revoke, logout). */
export function identityProviderOrigin(domain: string): string {
  const url = URL.canParse(domain) && /^https?:\/\//.test(domain) ? domain : `https://${domain}`;
  return new URL(url).origin;
}

/** Origin of the Persona widget frame: the custom host when set (local), else Persona's hosts. */
export function personaFrameOrigin(customHost: string | undefined): string {
  if (!customHost) return 'https://*.withpersona.com';
  const loopback = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(customHost);
  return `${loopback ? 'http' : 'https'}://${customHost}`;
}

export function contentSecurityPolicy({ scriptHashes, config }: SecurityHeaderOptions): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", identityProviderOrigin(config.auth0.domain)],
    'frame-src': [personaFrameOrigin(config.persona.customHost)],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    // Sign-in pages of the identity provider receive form posts (as in the CloudFront policy).
    'form-action': ["'self'", identityProviderOrigin(config.auth0.domain)],
    'object-src': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': `camera=(self "${personaFrameOrigin(options.config.persona.customHost)}"), microphone=(), geolocation=(), payment=()`,
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/** HTML is revalidated on every visit; hashed assets never change; everything else revalidates. */
export function cacheControl(urlPath: string): string {
  return urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}
