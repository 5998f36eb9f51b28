// Auth0's names the local identity provider knows, kept free of oidc-provider (ADR 0055).

/** The Management API scopes. */
export const MANAGEMENT_SCOPES = [
  'read:users',
  'update:users',
  'create:users',
  'delete:users',
  'create:user_tickets',
  'update:users_app_metadata',
  // Organizations (ADR 0081).
  'create:organizations',
  'read:organizations',
  'update:organizations',
  'delete:organizations',
  'create:organization_members',
  'read:organization_members',
  'delete:organization_members',
  'create:organization_member_roles',
  'read:organization_member_roles',
  'delete:organization_member_roles',
  'create:organization_invitations',
  'read:organization_invitations',
  'delete:organization_invitations',
  'create:roles',
  'read:roles',
];

/** Scopes an access token for the product API carries (Auth0 puts the OIDC scopes there too). */
export const API_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

/** Auth0's password grant with a realm (the database connection), beside the plain `password`. */
export const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';
