/**
 * Auth0 post-login Action (Login / Post Login trigger).
 *
 * Copies the platform's authorization attributes from `app_metadata` into namespaced custom
 * claims on both the ID token and the access token. The namespace comes from the Action secret
 * CLAIMS_NAMESPACE (for example `https://platform.local/`, ending with a slash).
 *
 * The local identity provider (local/idp) loads and runs this exact file on every login,
 * refresh-token exchange and password grant, so claims always reflect the current app_metadata.
 */
const CLAIMS = ['role', 'kyc_status', 'organization_type'];

exports.onExecutePostLogin = async (event, api) => {
  const namespace = event.secrets.CLAIMS_NAMESPACE;
  if (!namespace) {
    api.access.deny('CLAIMS_NAMESPACE secret is not configured');
    return;
  }
  const prefix = namespace.endsWith('/') ? namespace : `${namespace}/`;
  const appMetadata = event.user.app_metadata || {};

  for (const name of CLAIMS) {
    const value = appMetadata[name];
    if (value === undefined || value === null) continue;
    api.idToken.setCustomClaim(`${prefix}${name}`, value);
    api.accessToken.setCustomClaim(`${prefix}${name}`, value);
  }
};
