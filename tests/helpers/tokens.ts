// Tokens and users from the local identity provider, obtained the way scripts do against Auth0.
// Shared with the tooling (scripts/lib), re-exported for the tests.
export { createTestUser, managementToken, passwordToken, type TestUser } from '#scripts/lib/local-idp.ts';
export { mailbox } from '#scripts/lib/local-stack-client.ts';
