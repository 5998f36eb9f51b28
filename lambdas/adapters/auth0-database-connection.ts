/**
 * The Auth0 database connection accounts live in: registration creates users there, provisioning
 * (infra/auth0/provision) disables public sign-up on it, and the local identity provider is it.
 */
export const DATABASE_CONNECTION = 'Username-Password-Authentication';
