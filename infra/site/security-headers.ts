// The site's response headers and its Content-Security-Policy, defined once. The CloudFront
// response headers policy (site.ts) and the local dist server (local/web) both build
// them here from the same inputs; no other module writes a CSP. Plain TypeScript without CDK
// imports, so the local server can import it cheaply.
import type { WebConfig } from '#contracts/web-config.ts';

/** Where the Persona widget frame comes from in AWS stages (the SDK's production host and its siblings). */
export const personaHosts = 'https://*.withpersona.com';

/** Two years, the HSTS preload list's expectation (it requires at least one year). */
export const hstsMaxAgeSeconds = 63_072_000;

export interface SiteHeaderInputs {
  /** CSP sources for the build's inline scripts (`'sha256-...'`), from its `csp-hashes.json`. */
  scriptHashes: readonly string[];
  /** The Auth0 tenant domain (`tenant.eu.auth0.com`), or a URL with scheme for the local identity provider. */
  identityProvider: string;
  /** The origin the Persona widget frame loads from (`personaFrameOrigin`). */
  personaFrame: string;
  /** Served over HTTPS (CloudFront): HSTS and `upgrade-insecure-requests` apply; over plain http they do not. */
  https: boolean;
  /** The realtime API's WebSocket origin (`realtimeOrigin`), when the stage has one. */
  realtime?: string;
}

/** The header set, in the shape a CloudFront response headers policy takes it. */
export interface SiteHeaders {
  contentSecurityPolicy: string;
  /** Absent where the site is not served over HTTPS (browsers ignore HSTS over http anyway). */
  strictTransportSecurity?: { maxAgeSeconds: number; includeSubdomains: boolean; preload: boolean };
  contentTypeOptions: 'nosniff';
  frameOptions: 'DENY';
  referrerPolicy: 'strict-origin-when-cross-origin';
  permissionsPolicy: string;
  crossOriginOpenerPolicy: 'same-origin';
}

/** The origin of the identity provider; a bare domain means https, as in auth0-spa-js. */
export function identityProviderOrigin(domain: string): string {
  return new URL(/^https?:\/\//.test(domain) ? domain : `https://${domain}`).origin;
}

/**
 * The origin the `persona` SDK loads its widget frame from: Persona's hosts without `customHost`,
 * else the custom host with the scheme the SDK gives it (http only for `localhost...`, as in the
 * SDK's `baseUrlOfHost`; `127.0.0.1:4020` would be https there too).
 */
export function personaFrameOrigin(customHost: string | undefined): string {
  if (!customHost) return personaHosts;
  return new URL(customHost.startsWith('localhost') ? `http://${customHost}` : `https://${customHost}`)
    .origin;
}

/** The realtime API's WebSocket origin: a bare domain means `wss://` (as the web client connects). */
export function realtimeOrigin(realtimeDomain: string): string {
  return /^wss?:\/\//.test(realtimeDomain) ? new URL(realtimeDomain).origin : `wss://${realtimeDomain}`;
}

/** The inputs that a stage's `/config.json` and a build's CSP hashes give. */
export function siteHeaderInputs(
  config: WebConfig,
  scriptHashes: readonly string[],
  transport: { https: boolean },
): SiteHeaderInputs {
  return {
    scriptHashes,
    identityProvider: config.auth0.domain,
    personaFrame: personaFrameOrigin(config.persona.customHost),
    https: transport.https,
    ...(config.realtime ? { realtime: realtimeOrigin(config.realtime.realtimeDomain) } : {}),
  };
}

/**
 * What the pages need and nothing more:
 * - scripts: the build's own files and its inline scripts by hash, never 'unsafe-inline';
 * - Auth0 (auth0-spa-js with refresh tokens in local storage): `/authorize` and `/v2/logout` are
 *   top-level navigations, which no CSP directive governs; `/oauth/token` and `/oauth/revoke` are
 *   fetches, hence `connect-src`. No silent-auth iframe (refresh tokens, no fallback), no worker
 *   (only used with the memory cache), and no form posts to the tenant, so no `frame-src`,
 *   `worker-src` or `form-action` entry for it;
 * - the realtime API (AppSync Events): the status screen's WebSocket (`connect-src`, its exact host:
 *   a token-bearing socket may go nowhere else; ADR 0060);
 * - Persona: the widget is a frame (`frame-src`); the SDK fetches nothing and loads no image,
 *   script or stylesheet file into this page (its spinner is inline SVG). Its `Client` class
 *   does append inline `<style>` elements and a `style` attribute, which this policy refuses (one
 *   stylesheet holds a random id, so no hash could allow it): open the widget with the SDK's
 *   `setupIframe`/`setupEvents` and style it from the app's own CSS (ADR 0022);
 * - no `<base>` element anywhere (the prerender and the app shell use absolute paths), so
 *   `base-uri 'none'` (ADR 0032).
 */
export function contentSecurityPolicy(inputs: SiteHeaderInputs): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...inputs.scriptHashes]],
    ['style-src', ["'self'"]],
    // data: for the favicon, which the build inlines as a data URL.
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'"]],
    [
      'connect-src',
      [
        "'self'",
        identityProviderOrigin(inputs.identityProvider),
        ...(inputs.realtime ? [inputs.realtime] : []),
      ],
    ],
    ['frame-src', [inputs.personaFrame]],
    ['frame-ancestors', ["'none'"]],
    // No page sets <base>: with 'none' an injected <base href> cannot redirect the pages' relative
    // script and link URLs to another origin.
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['object-src', ["'none'"]],
    ...(inputs.https ? [['upgrade-insecure-requests', []] as [string, string[]]] : []),
  ];
  return directives.map(([name, sources]) => [name, ...new Set(sources)].join(' ')).join('; ');
}

/**
 * Permissions-Policy (structured-field syntax): the camera only for this origin and the Persona
 * frame (the SDK's iframe also asks for it with `allow="camera"`), every other powerful feature off.
 */
export function permissionsPolicy(inputs: Pick<SiteHeaderInputs, 'personaFrame'>): string {
  return [
    `camera=(self "${inputs.personaFrame}")`,
    'microphone=()',
    'geolocation=()',
    'payment=()',
    'usb=()',
    'serial=()',
    'midi=()',
    'magnetometer=()',
    'gyroscope=()',
    'accelerometer=()',
  ].join(', ');
}

export function siteHeaders(inputs: SiteHeaderInputs): SiteHeaders {
  return {
    contentSecurityPolicy: contentSecurityPolicy(inputs),
    ...(inputs.https
      ? {
          strictTransportSecurity: {
            maxAgeSeconds: hstsMaxAgeSeconds,
            includeSubdomains: true,
            preload: true,
          },
        }
      : {}),
    contentTypeOptions: 'nosniff',
    frameOptions: 'DENY',
    referrerPolicy: 'strict-origin-when-cross-origin',
    permissionsPolicy: permissionsPolicy(inputs),
    // The login is a full-page redirect, so no popup needs an opener.
    crossOriginOpenerPolicy: 'same-origin',
  };
}

/** The header set as HTTP header fields, written the way CloudFront writes them. */
export function headerFields(headers: SiteHeaders): Record<string, string> {
  const hsts = headers.strictTransportSecurity;
  return {
    'Content-Security-Policy': headers.contentSecurityPolicy,
    ...(hsts
      ? {
          'Strict-Transport-Security': [
            `max-age=${hsts.maxAgeSeconds}`,
            ...(hsts.includeSubdomains ? ['includeSubDomains'] : []),
            ...(hsts.preload ? ['preload'] : []),
          ].join('; '),
        }
      : {}),
    'X-Content-Type-Options': headers.contentTypeOptions,
    'X-Frame-Options': headers.frameOptions,
    'Referrer-Policy': headers.referrerPolicy,
    'Permissions-Policy': headers.permissionsPolicy,
    'Cross-Origin-Opener-Policy': headers.crossOriginOpenerPolicy,
  };
}
