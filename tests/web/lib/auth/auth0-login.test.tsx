// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebConfig } from '#contracts/web-config.ts';
import { AuthProvider, type AuthSession, loginInvitation } from '#web/lib/auth/auth0.tsx';

// The login's `/authorize` parameters (ADR 0081, 0083, 0084): the invitation email's link
// (`/auth/login?invitation=<ticket>&organization=<org_id>&organization_name=<name>`) passes the
// invitation and its organization; a login through the member's organization passes it and
// remembers it; the ID token's `org_id` reaches the session as `user.organizationId`.
const sdk = vi.hoisted(() => ({
  loginWithRedirect: vi.fn(async (_options?: unknown) => {}),
  user: { sub: 'auth0|someone', org_id: 'org_fromToken1' } as Record<string, unknown>,
}));
vi.mock('@auth0/auth0-react', () => ({
  Auth0Provider: ({ children }: { children: ReactNode }) => children,
  useAuth0: () => ({
    isLoading: false,
    isAuthenticated: true,
    error: undefined,
    user: sdk.user,
    getAccessTokenSilently: vi.fn(async () => 'access-token'),
    loginWithRedirect: sdk.loginWithRedirect,
    logout: vi.fn(),
    revokeRefreshToken: vi.fn(),
  }),
}));

const config = {
  auth0: { domain: 'tenant.example', clientId: 'client', audience: 'https://api.example' },
} as WebConfig;

function session(): AuthSession {
  let current: AuthSession | undefined;
  render(
    <AuthProvider config={config} onLoggedIn={() => undefined}>
      {(value) => {
        current = value;
        return null;
      }}
    </AuthProvider>,
  );
  if (!current) throw new Error('the provider rendered no session');
  return current;
}

function params(): Record<string, string> {
  const options = sdk.loginWithRedirect.mock.calls.at(-1)?.[0] as
    | { authorizationParams: Record<string, string> }
    | undefined;
  if (!options) throw new Error('no login started');
  return options.authorizationParams;
}

beforeEach(() => {
  localStorage.clear();
  sdk.loginWithRedirect.mockClear();
});
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

describe('the login route with an invitation link', () => {
  it('passes the invitation and its organization to /authorize, and remembers the organization', async () => {
    window.history.replaceState(
      null,
      '',
      '/auth/login?invitation=Gnp1bM3o-Q7VE3_MTbV5&organization=org_acme123&organization_name=acme-labs',
    );
    await session().login('/auth/login');
    expect(params()).toMatchObject({
      invitation: 'Gnp1bM3o-Q7VE3_MTbV5',
      organization: 'org_acme123',
      prompt: 'login',
    });
    expect(params()).not.toHaveProperty('organization_name');
    expect(localStorage.getItem('platform.organization')).toBe('org_acme123');
  });

  it('drops an invitation of the wrong shape, or one without a valid organization', async () => {
    window.history.replaceState(
      null,
      '',
      '/auth/login?invitation=abc%26prompt%3Dnone&organization=org_acme123',
    );
    await session().login();
    expect(params()).not.toHaveProperty('invitation');
    expect(params().organization).toBe('org_acme123');

    expect(loginInvitation('?invitation=ticket1&organization=not-an-org')).toEqual({});
    expect(loginInvitation('?invitation=ticket1')).toEqual({});
    expect(loginInvitation(`?invitation=${'a'.repeat(129)}&organization=org_a`)).toEqual({});
    expect(loginInvitation('?invitation=ticket_1-A&organization=org_a')).toEqual({
      invitation: 'ticket_1-A',
    });
  });

  it('asks for no invitation on an ordinary login', async () => {
    window.history.replaceState(null, '', '/auth/login');
    await session().login();
    expect(params()).not.toHaveProperty('invitation');
    expect(params()).not.toHaveProperty('organization');
  });
});

describe('a login through the member organization', () => {
  it('passes that organization and remembers it for the next sign-in, without an invitation', async () => {
    window.history.replaceState(null, '', '/auth/callback?invitation=ticket1&organization=org_other1');
    await session().login('/dashboard', 'org_member42');
    expect(params()).toMatchObject({ organization: 'org_member42' });
    expect(params()).not.toHaveProperty('invitation');
    // Over the provider's session: the password form is not asked for again.
    expect(params()).not.toHaveProperty('prompt');
    expect(sdk.loginWithRedirect.mock.calls.at(-1)?.[0]).toMatchObject({
      appState: { returnTo: '/dashboard' },
    });
    expect(localStorage.getItem('platform.organization')).toBe('org_member42');
  });

  it("reads the ID token's org_id as the session user's organization", () => {
    expect(session().user?.organizationId).toBe('org_fromToken1');
  });
});
