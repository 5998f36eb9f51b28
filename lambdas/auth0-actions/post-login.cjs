/**
 * Auth0 post-login Action (Login / Post Login trigger).
 *
 * Copies the platform's authorization attributes from `app_metadata` into namespaced custom
 * claims on both the ID token and the access token, puts `email_verified` on the access token
 * (the API refuses consent and identity verification until it is true) with the account's email and
 * name (the signed-in screens read them from the token, ADR 0059), and makes administrators
 * use multi-factor authentication. The namespace comes from the Action secret CLAIMS_NAMESPACE (for example
 * `https://platform.local/`, ending with a slash).
 *
 * It lets in only accounts registration created, and administrators (an operator sets
 * `app_metadata.role`; docs/deploying.md section 8): an account from any other way in (a social or
 * passwordless connection, a sign-up somebody enabled) is denied (ADR 0074).
 *
 * The local identity provider (local/idp) loads and runs this exact file on every login,
 * refresh-token exchange and password grant, so claims always reflect the current app_metadata.
 * It records `api.multifactor.enable` but has no second factor to enforce: it reports the factor
 * as given, in `event.authentication.methods`, as Auth0 does once the person gave it.
 *
 * Every Action bound to the trigger runs for every login of the tenant. A tenant that holds two
 * stages runs both stages' Actions, so this one serves only tokens for its stage's API (the Action
 * secret AUDIENCE): for another API it adds no claim and asks for nothing, and the other stage's
 * Action decides there (docs/deploying.md, "A second stage").
 */
const CLAIMS = ['role', 'kyc_status', 'organization_type'];

/**
 * The organization roles (lambdas/contracts/organization.ts `organizationRoles`, which this file
 * cannot import; a test holds the two equal).
 */
const ORGANIZATION_ROLES = ['org_admin', 'org_member'];
exports.ORGANIZATION_ROLES = ORGANIZATION_ROLES;

/**
 * The longest an administrator's second factor vouches for their tokens: the session's maximum
 * (lambdas/contracts/session-lifetimes.ts, which this file cannot import; a test holds the two equal).
 */
const ADMIN_MFA_MAX_AGE_SECONDS = 60 * 60;
exports.ADMIN_MFA_MAX_AGE_SECONDS = ADMIN_MFA_MAX_AGE_SECONDS;

/** The messages a denied login carries (the web shows the provider's description). */
const DENIED = {
  notRegistered: 'This account was not created through registration. Register at the site to sign in.',
  mfaTooOld: 'An administrator must sign in again with a second factor.',
};
exports.DENIED = DENIED;

/**
 * What registration writes (lambdas/domain/registration/register-organization.ts): the role
 * `user` and the organization's type; an organization invitation carries the same for the account
 * it creates (ADR 0084). An administrator's role is set by an operator.
 */
function createdByRegistrationOrOperator(appMetadata) {
  if (appMetadata.role === 'admin') return true;
  const type = appMetadata.organization_type;
  return appMetadata.role === 'user' && typeof type === 'string' && type.trim() !== '';
}

/** When the session's latest second factor was given (epoch ms), from `event.authentication`. */
function lastSecondFactorAt(event) {
  const methods = event.authentication?.methods;
  if (!Array.isArray(methods)) return undefined;
  let latest;
  for (const method of methods) {
    if (method?.name !== 'mfa') continue;
    const at = Date.parse(method.timestamp);
    if (!Number.isNaN(at) && (latest === undefined || at > latest)) latest = at;
  }
  return latest;
}

/**
 * The prefix every custom claim is named with: the namespace, with its trailing slash added when
 * missing. The one definition: the backend imports it to read the claims this Action writes
 * (lambdas/http/auth.ts), so a namespace configured either way names the same claims.
 */
function claimsPrefix(namespace) {
  return namespace.endsWith('/') ? namespace : `${namespace}/`;
}
exports.claimsPrefix = claimsPrefix;

exports.onExecutePostLogin = async (event, api) => {
  const namespace = event.secrets.CLAIMS_NAMESPACE;
  if (!namespace) {
    api.access.deny('CLAIMS_NAMESPACE secret is not configured');
    return;
  }
  const audience = event.secrets.AUDIENCE;
  const requested = event.resource_server?.identifier;
  if (audience && requested && requested !== audience) return;
  const prefix = claimsPrefix(namespace);
  const appMetadata = event.user.app_metadata || {};
  const protocol = event.transaction?.protocol;

  if (!createdByRegistrationOrOperator(appMetadata)) {
    api.access.deny(DENIED.notRegistered);
    return;
  }
  // A refresh-token exchange cannot show a challenge (Auth0 fails it, and documents skipping MFA
  // there), so an administrator's exchange is allowed only while the session's second factor is
  // younger than the session's maximum; otherwise the admin signs in again, with the factor. This
  // also stops a refresh token from a login before a promotion to admin, which had no factor.
  if (appMetadata.role === 'admin' && protocol === 'oauth2-refresh-token') {
    const factorAt = lastSecondFactorAt(event);
    if (factorAt === undefined || Date.now() - factorAt > ADMIN_MFA_MAX_AGE_SECONDS * 1000) {
      api.access.deny(DENIED.mfaTooOld);
      return;
    }
  }

  for (const name of CLAIMS) {
    const value = appMetadata[name];
    if (value === undefined || value === null) continue;
    api.idToken.setCustomClaim(`${prefix}${name}`, value);
    api.accessToken.setCustomClaim(`${prefix}${name}`, value);
  }

  // Access tokens carry no standard email claims. Auth0 runs this Action on refresh-token
  // exchanges too, so once the person verifies, the next refresh carries `true`.
  api.accessToken.setCustomClaim(`${prefix}email_verified`, event.user.email_verified === true);
  // The account's address and name, so that the signed-in screens need no Management API call for
  // an account the product has no profile of (created outside registration: ADR 0059).
  if (typeof event.user.email === 'string' && event.user.email) {
    api.accessToken.setCustomClaim(`${prefix}email`, event.user.email);
  }
  if (typeof event.user.name === 'string' && event.user.name) {
    api.accessToken.setCustomClaim(`${prefix}name`, event.user.name);
  }

  // A login through an organization (its tokens carry Auth0's own `org_id`): the member's roles in
  // it, which Auth0 applies on such a login and gives the Action in `event.authorization.roles`
  // (ADR 0083). Only the organization roles, and always an array, so the API reads one shape.
  if (event.organization && typeof event.organization.id === 'string') {
    const assigned = Array.isArray(event.authorization?.roles) ? event.authorization.roles : [];
    const orgRoles = ORGANIZATION_ROLES.filter((role) => assigned.includes(role));
    api.idToken.setCustomClaim(`${prefix}org_roles`, orgRoles);
    api.accessToken.setCustomClaim(`${prefix}org_roles`, orgRoles);
  }

  // An admin can approve or reject anyone's verification: a password alone is not enough, and no
  // browser may be remembered. A refresh-token exchange was judged above.
  if (appMetadata.role === 'admin' && protocol !== 'oauth2-refresh-token') {
    api.multifactor.enable('any', { allowRememberBrowser: false });
  }
};
