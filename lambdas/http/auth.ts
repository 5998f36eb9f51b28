import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { kycStatuses } from '#contracts/kyc.ts';
import { type OrganizationRole, organizationRoles, organizationTypes } from '#contracts/organization.ts';
import { claimsPrefix } from '#lambdas/auth0-actions/post-login.cjs';
import { requireEnv } from '#lambdas/config.ts';
import type { Caller, CallerClaims, CallerOrganization } from '#lambdas/domain/caller.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import type { HttpApiEvent } from './api-gateway.ts';
import { AdminRoleRequiredError, UnauthorizedError } from './errors.ts';

// The caller of a `user` or `admin` route. API Gateway's JWT authorizer checks the token first,
// but it has no algorithm setting (docs/design.md section 3 wants RS256 only), so the handler
// verifies the bearer token itself (ADR 0034) and takes the caller from the verified token. The user id is always the
// token's `sub`, never anything from the body.

export type { Caller };

/** The prefix of the Action's claims, normalised as the Action normalises it (one function). */
export function claimsNamespace(): string {
  return claimsPrefix(requireEnv('claimsNamespace'));
}

/** docs/design.md section 3: expiry with at most 60 s leeway. */
export const clockToleranceSeconds = 60;
/**
 * A token whose `kid` is not in the cached JWKS refetches it, but at most once per this long: a
 * flood of forged key ids costs one request to the issuer a minute per container, and a rotated
 * key is picked up within a minute.
 */
export const jwksCooldownMs = 60_000;

let issuerKeys: ReturnType<typeof createRemoteJWKSet> | undefined;

/** The issuer's JWKS, fetched on first use and cached for the container's life. */
function keys() {
  issuerKeys ??= createRemoteJWKSet(new URL('.well-known/jwks.json', requireEnv('auth0Issuer')), {
    cooldownDuration: jwksCooldownMs,
  });
  return issuerKeys;
}

/** API Gateway hands claims to Lambda as strings (`"true"`); the token itself has booleans. */
const isTrue = (value: unknown) => value === true || value === 'true';

function bearerToken(event: HttpApiEvent): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(event.headers.authorization?.trim() ?? '');
  return match?.[1];
}

async function verifiedPayload(token: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, keys(), {
      issuer: requireEnv('auth0Issuer'),
      audience: requireEnv('auth0Audience'),
      algorithms: ['RS256'],
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    return payload;
  } catch (error) {
    // Fail closed on every failure, an unreachable JWKS included (the authorizer does the same).
    // problems.ts logs the security event; the reason helps tell forgery from a stale key.
    logger.info('bearer token refused', {
      reason: error instanceof errors.JOSEError ? error.code : String(error),
    });
    throw new UnauthorizedError();
  }
}

/**
 * The verified caller: the authorizer's claims must be there (a route reached without them is a
 * misconfiguration and fails closed), the bearer token must verify, and both must name one `sub`.
 */
export async function authenticate(event: HttpApiEvent): Promise<Caller> {
  const claims = event.requestContext.authorizer?.jwt.claims;
  const authorizedSub = claims?.sub;
  if (typeof authorizedSub !== 'string' || authorizedSub === '') throw new UnauthorizedError();
  const token = bearerToken(event);
  if (token === undefined) throw new UnauthorizedError();
  const payload = await verifiedPayload(token);
  if (payload.sub !== authorizedSub || typeof payload.iss !== 'string') throw new UnauthorizedError();
  const namespace = claimsNamespace();
  const claim = (name: string): unknown => payload[`${namespace}${name}`];
  return {
    userId: payload.sub,
    issuer: payload.iss,
    role: claim('role') === 'admin' ? 'admin' : 'user',
    // A token minted before the Action added this claim counts as unverified until refreshed.
    emailVerified: isTrue(claim('email_verified')),
    claims: callerClaims(claim),
    ...callerOrganization(payload.org_id, claim('org_roles')),
  };
}

/**
 * Auth0's own `org_id` (a login through an organization) and the Action's `org_roles` (ADR 0083):
 * roles other than the organization roles are dropped, and without `org_id` there is none.
 */
function callerOrganization(orgId: unknown, roles: unknown): { organization?: CallerOrganization } {
  if (typeof orgId !== 'string' || orgId === '') return {};
  const held = Array.isArray(roles) ? roles : [];
  return {
    organization: {
      id: orgId,
      roles: organizationRoles.filter((role: OrganizationRole) => held.includes(role)),
    },
  };
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const oneOf = <T extends string>(allowed: readonly T[], value: unknown) =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;

/** The Action's other claims, each dropped when missing or not one of its known values. */
function callerClaims(claim: (name: string) => unknown): CallerClaims {
  const claims: CallerClaims = {};
  const email = text(claim('email'));
  const name = text(claim('name'));
  const kycStatus = oneOf(kycStatuses, claim('kyc_status'));
  const organizationType = oneOf(organizationTypes, claim('organization_type'));
  if (email) claims.email = email;
  if (name) claims.name = name;
  if (kycStatus) claims.kycStatus = kycStatus;
  if (organizationType) claims.organizationType = organizationType;
  return claims;
}

export function requireAdmin(caller: Caller): void {
  if (caller.role !== 'admin') throw new AdminRoleRequiredError();
}
