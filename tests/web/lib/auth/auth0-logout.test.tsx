// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebConfig } from '#contracts/web-config.ts';
import { AuthProvider, type AuthSession } from '#web/lib/auth/auth0.tsx';

// The web's ways out of a session, with the identity SDK replaced by a recorder: each must revoke
// the refresh token at the provider (`/oauth/revoke`, through the SDK) before the SDK forgets it
// (ADR 0074).
const sdk = vi.hoisted(() => {
  const calls: string[] = [];
  return {
    calls,
    revokeRefreshToken: vi.fn(async () => {
      calls.push('revoke');
    }),
    logout: vi.fn(async (options?: unknown) => {
      calls.push(`logout ${JSON.stringify(options)}`);
    }),
    getAccessTokenSilently: vi.fn(async () => {
      calls.push('refresh');
      return 'access-token';
    }),
  };
});
vi.mock('@auth0/auth0-react', () => ({
  Auth0Provider: ({ children }: { children: ReactNode }) => children,
  useAuth0: () => ({
    isLoading: false,
    isAuthenticated: true,
    error: undefined,
    user: { sub: 'auth0|someone' },
    getAccessTokenSilently: sdk.getAccessTokenSilently,
    loginWithRedirect: vi.fn(),
    logout: sdk.logout,
    revokeRefreshToken: sdk.revokeRefreshToken,
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

beforeEach(() => {
  sdk.calls.length = 0;
  sdk.revokeRefreshToken.mockClear();
  sdk.logout.mockClear();
  sdk.getAccessTokenSilently.mockClear();
});
afterEach(cleanup);

describe("the web's logout", () => {
  it('revokes the refresh token, then logs out at the identity provider and returns to the site', async () => {
    await session().logout();
    expect(sdk.calls).toEqual([
      'revoke',
      `logout ${JSON.stringify({ logoutParams: { returnTo: window.location.origin } })}`,
    ]);
  });

  it('revokes the refresh token before forgetting a session that ended without a round trip', async () => {
    await session().logoutLocally();
    expect(sdk.calls).toEqual(['revoke', `logout ${JSON.stringify({ openUrl: false })}`]);
  });

  it('waits for a token refresh in flight before revoking, so the refresh is not refused and the newest token is revoked', async () => {
    let finish: (token: string) => void = () => undefined;
    sdk.getAccessTokenSilently.mockImplementationOnce(
      () =>
        new Promise<string>((resolve) => {
          finish = (token) => {
            sdk.calls.push('refreshed');
            resolve(token);
          };
        }),
    );
    const current = session();
    const refresh = current.getAccessToken({ fresh: true });
    const loggedOut = current.logout();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sdk.calls).toEqual([]);
    finish('new-access-token');
    await Promise.all([refresh, loggedOut]);
    expect(sdk.calls).toEqual([
      'refreshed',
      'revoke',
      `logout ${JSON.stringify({ logoutParams: { returnTo: window.location.origin } })}`,
    ]);
  });

  it('still logs out when the revocation fails (the token then dies of its idle lifetime)', async () => {
    sdk.revokeRefreshToken.mockRejectedValueOnce(new Error('revoke_error'));
    await session().logout();
    expect(sdk.logout).toHaveBeenCalledTimes(1);
  });
});
