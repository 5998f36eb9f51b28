import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type OrganizationRole,
  organizationRoleDescriptions,
  organizationRoles,
} from '#contracts/organization.ts';
import { refreshTokenLifetimes } from '#contracts/session-lifetimes.ts';
import type { StageConfig } from '#infra/stage-config.ts';
import { DATABASE_CONNECTION } from '#lambdas/adapters/auth0-database-connection.ts';
import { type Auth0M2mKey, auth0M2mKeys, auth0M2mScopes, secretEnvVars } from '#lambdas/grants.ts';

// What one stage's Auth0 tenant must contain, derived from the same stage config as the CDK app.
// Only the settings listed here are compared and written: anything else on the tenant (branding,
// other connections, other applications, other options of the database connection) is left alone.

export const POST_LOGIN_ACTION_FILE = fileURLToPath(
  new URL('../../../lambdas/auth0-actions/post-login.cjs', import.meta.url),
);

/**
 * Each function's M2M application gets exactly the scopes `auth0M2mScopes` (lambdas/grants.ts)
 * names for its credentials, and its own secret (ADR 0034). The former single "backend"
 * application held them all; provisioning no longer creates it and notes it while it exists.
 */
export const legacyBackendName = (stage: string) => `Platform ${stage} backend`;

/**
 * Refresh tokens: rotated on every use, the family ends with the session's 60-minute maximum and a
 * token unused for 7 minutes dies (the inactivity rule and the refresh cadence; ADR 0074).
 */
const REFRESH_TOKEN_LIFETIME_SECONDS = refreshTokenLifetimes.absoluteSeconds;
const REFRESH_TOKEN_IDLE_SECONDS = refreshTokenLifetimes.idleSeconds;
/** ID tokens: the SPA reads them at sign-in only. */
const ID_TOKEN_LIFETIME_SECONDS = 60 * 60;
/** Access tokens for the API: short, because the SPA refreshes them silently. */
const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60;

export type Settings = Record<string, unknown>;

export interface DesiredClient {
  /** Applications are found by this name (and the SPA also by the stage's client id). */
  name: string;
  settings: Settings;
}

/** One function's machine-to-machine application and its grant on the Management API. */
export interface DesiredM2m extends DesiredClient {
  key: Auth0M2mKey;
  scope: string[];
}

/** The resources of the plan that name one M2M application: `m2m:<key>`, `grant:<key>`. */
export type M2mResource = `m2m:${Auth0M2mKey}`;

export interface DesiredTenant {
  /** The tenant's canonical domain: where the Management API lives (`https://<domain>/api/v2/`). */
  managementDomain: string;
  spa: DesiredClient & { configuredClientId: string };
  api: { identifier: string; settings: Settings };
  /** One application per credentials key; all are granted on `managementAudience` only. */
  m2m: DesiredM2m[];
  /** The Management API audience (`https://<domain>/api/v2/`). */
  managementAudience: string;
  /** The application named like the former single backend application, if any (not managed). */
  legacyM2mName: string;
  action: {
    name: string;
    trigger: { id: 'post-login'; version: 'v3' };
    runtime: string;
    code: string;
    /** Values are write-only on Auth0: only the names can be compared. */
    secrets: Record<string, string>;
  };
  binding: { displayName: string };
  /**
   * The database connection registration creates users in. Public sign-up is off: accounts come
   * only from POST /api/registrations (the backend, through the Management API). The SPA signs
   * people in through it; the backend application creates users in it, which Auth0 allows only for
   * applications the connection is enabled for.
   */
  connection: {
    name: string;
    strategy: 'auth0';
    /** Compared key by key and merged into the connection's options (a PATCH replaces them all). */
    options: { disable_signup: true };
    enabledClients: ('spa' | M2mResource)[];
  };
  /**
   * The organization roles (issue 27): tenant roles, found by name, that an organization assigns
   * to its members. Only their description is managed; their permissions stay empty (the API reads
   * the role from the token, not from Auth0's RBAC permissions).
   */
  roles: { name: OrganizationRole; description: string }[];
  /**
   * The other connections the stage allows on the SPA (`auth0.extraConnections`), each only while
   * its `options.disable_signup` is true; provisioning refuses any other connection enabled for the
   * SPA, and a dry run reports it.
   */
  extraConnections: string[];
}

export function desiredTenant(
  config: StageConfig,
  options: { managementDomain: string; actionCode?: string },
): DesiredTenant {
  if (!config.siteUrl) {
    throw new Error(
      `Stage ${config.stage} has no siteUrl: the SPA's callback and origin URLs derive from it. Deploy once, set siteUrl to https://<the Platform-${config.stage}-Site DistributionDomainName output>, then provision (docs/deploying.md).`,
    );
  }
  const origin = new URL(config.siteUrl).origin;
  const prefix = `Platform ${config.stage}`;
  return {
    managementDomain: options.managementDomain,
    spa: {
      name: `${prefix} web`,
      configuredClientId: config.auth0.spaClientId,
      settings: {
        description: `The platform site (${origin}): sign-in with PKCE and rotating refresh tokens`,
        app_type: 'spa',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        oidc_conformant: true,
        is_first_party: true,
        cross_origin_authentication: false,
        callbacks: [`${origin}/auth/callback`],
        allowed_logout_urls: [origin],
        web_origins: [origin],
        allowed_origins: [origin],
        jwt_configuration: { alg: 'RS256', lifetime_in_seconds: ID_TOKEN_LIFETIME_SECONDS },
        // Organizations (issue 27): members sign in through their organization (tokens carry
        // `org_id`); the platform's own admins and people registered before organizations sign
        // in without one. No prompt for an organization: the SPA names it when it has one.
        organization_usage: 'allow',
        organization_require_behavior: 'no_prompt',
        refresh_token: {
          rotation_type: 'rotating',
          expiration_type: 'expiring',
          leeway: 0,
          token_lifetime: REFRESH_TOKEN_LIFETIME_SECONDS,
          infinite_token_lifetime: false,
          idle_token_lifetime: REFRESH_TOKEN_IDLE_SECONDS,
          infinite_idle_token_lifetime: false,
        },
      },
    },
    api: {
      identifier: config.auth0.audience,
      settings: {
        name: `${prefix} API`,
        signing_alg: 'RS256',
        allow_offline_access: true,
        token_lifetime: ACCESS_TOKEN_LIFETIME_SECONDS,
        skip_consent_for_verifiable_first_party_clients: true,
      },
    },
    m2m: auth0M2mKeys.map((key) => ({
      key,
      name: `${prefix} ${key}`,
      settings: {
        description: `Management API access for ${key} only (${auth0M2mScopes[key].join(' ')}); credentials in the Secrets Manager secret ${key} (${secretEnvVars[key]})`,
        app_type: 'non_interactive',
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['client_credentials'],
        oidc_conformant: true,
        is_first_party: true,
      },
      scope: [...auth0M2mScopes[key]],
    })),
    managementAudience: `https://${options.managementDomain}/api/v2/`,
    legacyM2mName: legacyBackendName(config.stage),
    action: {
      name: `platform-${config.stage}-post-login`,
      trigger: { id: 'post-login', version: 'v3' },
      runtime: 'node22',
      code: options.actionCode ?? readFileSync(POST_LOGIN_ACTION_FILE, 'utf8'),
      secrets: { CLAIMS_NAMESPACE: config.auth0.claimsNamespace, AUDIENCE: config.auth0.audience },
    },
    binding: { displayName: `platform-${config.stage}-post-login` },
    connection: {
      name: DATABASE_CONNECTION,
      strategy: 'auth0',
      options: { disable_signup: true },
      // Only registration creates users in it.
      enabledClients: ['spa', 'm2m:auth0Registration'],
    },
    extraConnections: [...config.auth0.extraConnections],
    roles: organizationRoles.map((name) => ({ name, description: organizationRoleDescriptions[name] })),
  };
}
