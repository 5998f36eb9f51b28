import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Auth0M2mKey, auth0M2mKeys, auth0M2mScopes } from '#lambdas/grants.ts';
import type { IdpOptions, IdpSeedUser } from '#local/idp/index.ts';
import { auth0Plans, type ManagementApiPlan } from '#local/idp/rate-limit.ts';
import { MANAGEMENT_SCOPES } from '#local/idp/scopes.ts';

/** Fixed values the IdP tests (and anyone wanting a throwaway IdP) can share. */
export const TEST_AUDIENCE = 'https://api.platform.local';
export const TEST_NAMESPACE = 'https://platform.local/';
export const TEST_CLIENTS = {
  spa: 'local-spa',
  /** Every Management API scope (tests set up users with it). */
  m2m: { clientId: 'local-m2m', clientSecret: 'local-m2m-secret' },
  test: { clientId: 'local-test', clientSecret: 'local-test-secret' },
} as const;

/** The functions' applications, each granted only its own scopes (lambdas/grants.ts). */
export const TEST_M2M_CLIENTS = Object.fromEntries(
  auth0M2mKeys.map((key) => [key, { clientId: `local-m2m-${key}`, clientSecret: `local-m2m-${key}-secret` }]),
) as Record<Auth0M2mKey, { clientId: string; clientSecret: string }>;

export const TEST_USER: IdpSeedUser = {
  email: 'alice@example.com',
  password: 'Correct-Horse-9',
  name: 'Alice Example',
  emailVerified: true,
  appMetadata: { role: 'user', kyc_status: 'not_started', organization_type: 'bank' },
};

export function testIdpOptions(input: {
  port: number;
  sesEndpoint?: string;
  dataDir?: string;
  appOrigins?: string[];
  seedUsers?: IdpSeedUser[];
  /** Tenant roles to create at start (none unless asked: the organization tests create theirs). */
  seedRoles?: IdpOptions['seedRoles'];
  /** The Management API quota (ADR 0061): Auth0's Self Service plan unless a test needs another. */
  managementApiPlan?: ManagementApiPlan;
}): IdpOptions {
  const origins = input.appOrigins ?? ['http://localhost:5173'];
  return {
    port: input.port,
    audience: TEST_AUDIENCE,
    claimsNamespace: TEST_NAMESPACE,
    spa: {
      clientId: TEST_CLIENTS.spa,
      redirectUris: origins.map((o) => `${o}/callback`),
      postLogoutRedirectUris: origins.map((o) => `${o}/`),
    },
    m2m: [
      { ...TEST_CLIENTS.m2m, name: 'Tests (every scope)', scopes: MANAGEMENT_SCOPES },
      ...auth0M2mKeys.map((key) => ({ ...TEST_M2M_CLIENTS[key], name: key, scopes: auth0M2mScopes[key] })),
    ],
    test: { ...TEST_CLIENTS.test },
    dataDir: input.dataDir ?? mkdtempSync(join(tmpdir(), 'idp-test-')),
    ses: {
      endpoint: input.sesEndpoint ?? 'http://127.0.0.1:9',
      region: 'us-east-1',
      from: 'no-reply@platform.local',
    },
    seedUsers: input.seedUsers ?? [TEST_USER],
    ...(input.seedRoles ? { seedRoles: input.seedRoles } : {}),
    managementApiPlan: input.managementApiPlan ?? auth0Plans['self-service'],
  };
}

export interface TokenResponse {
  access_token?: string;
  id_token?: string;
  refresh_token?: string;
  scope?: string;
  expires_in?: number;
  token_type?: string;
  error?: string;
  error_description?: string;
}

/** POST `/oauth/token` with a JSON body, the way the auth0 SDK and scripts call Auth0. */
export async function postToken(
  idpUrl: string,
  body: Record<string, string>,
): Promise<{ status: number; body: TokenResponse }> {
  const res = await fetch(`${idpUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as TokenResponse };
}

export function passwordGrant(
  idpUrl: string,
  username: string,
  password: string,
  scope = 'openid profile email offline_access',
) {
  return postToken(idpUrl, {
    grant_type: 'password',
    username,
    password,
    audience: TEST_AUDIENCE,
    scope,
    client_id: TEST_CLIENTS.test.clientId,
    client_secret: TEST_CLIENTS.test.clientSecret,
  });
}

export async function managementToken(
  idpUrl: string,
  scope?: string,
  client: { clientId: string; clientSecret: string } = TEST_CLIENTS.m2m,
): Promise<string> {
  const { status, body } = await postToken(idpUrl, {
    grant_type: 'client_credentials',
    audience: `${idpUrl}/api/v2/`,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...(scope ? { scope } : {}),
  });
  if (status !== 200 || !body.access_token)
    throw new Error(`client_credentials failed: ${JSON.stringify(body)}`);
  return body.access_token;
}
