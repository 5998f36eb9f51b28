// The site's security headers as the CloudFront response headers policy sends them. local/web/
// headers.ts is the local dist server's copy; tests/infra/site.test.ts compares the two and lists
// every known difference, so neither can drift silently.

/** Where the Persona widget frame comes from in AWS stages. */
export const personaFrameOrigin = 'https://*.withpersona.com';

/** Two years, the HSTS preload list's expectation (it requires at least one year). */
export const hstsMaxAgeSeconds = 63_072_000;

export interface CspOptions {
  /** CSP sources for the build's inline scripts (`'sha256-...'`). */
  scriptHashes: readonly string[];
  /** Auth0 tenant domain (`tenant.eu.auth0.com`) or custom domain. */
  auth0Domain: string;
}

export function auth0Origin(domain: string): string {
  return new URL(/^https?:\/\//.test(domain) ? domain : `https://${domain}`).origin;
}

export function contentSecurityPolicy({ scriptHashes, auth0Domain }: CspOptions): string {
  const idp = auth0Origin(auth0Domain);
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...scriptHashes]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'"]],
    // Token, revoke and logout calls go to the tenant; the API is same-origin through /api/*.
    ['connect-src', ["'self'", idp]],
    ['frame-src', [personaFrameOrigin]],
    ['frame-ancestors', ["'none'"]],
    ['base-uri', ["'self'"]],
    // The SPA posts no form to the tenant today (login and logout are navigations); the tenant is
    // allowed here as infra's issue specifies, so a form-based flow would not be silently blocked.
    ['form-action', ["'self'", idp]],
    ['object-src', ["'none'"]],
    ['upgrade-insecure-requests', []],
  ];
  return directives.map(([name, sources]) => [name, ...new Set(sources)].join(' ')).join('; ');
}

/**
 * Permissions-Policy (structured-field syntax): the camera only for this origin and Persona's
 * frame (the SDK's iframe also carries `allow="camera"`), every other powerful feature off.
 */
export const permissionsPolicy = [
  `camera=(self "${personaFrameOrigin}")`,
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'bluetooth=()',
  'midi=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
].join(', ');

/** `Cross-Origin-Opener-Policy`: the login is a full-page redirect, so no popup needs an opener. */
export const crossOriginOpenerPolicy = 'same-origin';
