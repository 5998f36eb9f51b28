/** The Management API scopes the local identity provider knows (Auth0's names). */
export const MANAGEMENT_SCOPES = [
  'read:users',
  'update:users',
  'create:users',
  'delete:users',
  'create:user_tickets',
  'update:users_app_metadata',
];
