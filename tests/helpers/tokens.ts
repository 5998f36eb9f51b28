import { randomBytes } from 'node:crypto';
import type { StackInfo } from '#local/stack.ts';
import { managementFetch, managementToken, passwordToken } from '#scripts/lib/local-idp.ts';
import { mailbox } from '#scripts/lib/local-stack-client.ts';

// Shared with the tooling (scripts/lib), re-exported for the tests.
export { mailbox, managementToken, passwordToken };

// Tokens from the local identity provider, obtained the way scripts do against Auth0.

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  token: string;
}

/** A fresh user in the identity provider (through the Management API) with an API access token. */
export async function createTestUser(
  stack: StackInfo,
  appMetadata: Record<string, unknown> = {
    role: 'user',
    organization_type: 'commercial',
    kyc_status: 'not_started',
  },
  options: { emailVerified?: boolean } = {},
): Promise<TestUser> {
  const email = `user-${randomBytes(6).toString('hex')}@test-org.example`;
  const password = `Pw-${randomBytes(12).toString('base64url')}`;
  const response = await managementFetch(`${stack.idp.issuer}api/v2/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await managementToken(stack)}` },
    body: JSON.stringify({
      email,
      password,
      name: 'Test User',
      connection: 'Username-Password-Authentication',
      email_verified: options.emailVerified ?? true,
      app_metadata: appMetadata,
    }),
  });
  if (response.status !== 201)
    throw new Error(`creating a test user failed: ${response.status} ${await response.text()}`);
  const user = (await response.json()) as { user_id: string };
  return { userId: user.user_id, email, password, token: await passwordToken(stack, email, password) };
}
