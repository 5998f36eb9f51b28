// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeResponse } from '#contracts/me.ts';
import { problemTypes } from '#contracts/problem.ts';
import { approvedCommercial } from '#tests/web/features/dashboards/render-screen.tsx';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { Component as AppShell } from '#web/app/app-layout.tsx';
import { ToastProvider } from '#web/components/toast.tsx';
import type { AuthSession } from '#web/lib/auth/auth0.tsx';

// The app shell around a screen, with the identity SDK and /config.json replaced: how a session
// ends when `GET /api/me` refuses it (ADR 0084: a removed member is told why), and the nav's hint
// for an organization's approved admin.

const auth = vi.hoisted(() => ({
  logoutLocally: vi.fn(async () => {}),
  login: vi.fn(async (_returnTo?: string) => {}),
}));
vi.mock('#web/lib/config.ts', () => ({ loadConfig: async () => ({}) }));
vi.mock('#web/lib/auth/auth0.tsx', () => {
  const session: AuthSession = {
    isLoading: false,
    isAuthenticated: true,
    error: undefined,
    user: { sub: 'auth0|casey' },
    getAccessToken: async () => 'token',
    login: auth.login,
    logout: async () => {},
    logoutLocally: auth.logoutLocally,
  };
  return {
    AuthProvider: ({ children }: { children: (session: AuthSession) => ReactNode }) => children(session),
    authErrorMessage: (_error: unknown, fallback: string) => fallback,
    isLoginRequired: () => false,
  };
});

function Dashboard() {
  return <p>the dashboard</p>;
}
function Login() {
  return <p>never shown</p>;
}
function KycStart() {
  return <p>kyc start</p>;
}
function Home() {
  return <p>home</p>;
}

function renderShell(path = '/dashboard') {
  const router = createMemoryRouter(
    [
      {
        Component: AppShell,
        children: [
          { path: '/dashboard', handle: { appRoute: 'dashboard' }, Component: Dashboard },
          { path: '/auth/login', handle: { appRoute: 'login' }, Component: Login },
          { path: '/kyc/start', handle: { appRoute: 'kycStart' }, Component: KycStart },
        ],
      },
      { path: '/', Component: Home },
    ],
    { initialEntries: [path] },
  );
  render(
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>,
  );
  return router;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  auth.logoutLocally.mockClear();
  auth.login.mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the app shell when GET /api/me refuses the session', () => {
  it('tells a member their organization removed them, and ends the session here', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        problemJson(401, {
          type: problemTypes.organizationMembershipEnded,
          title: 'Unauthorized',
          status: 401,
        }),
      ),
    );
    const router = renderShell();
    expect(await screen.findByText("You were removed from your organization's workspace.")).toBeDefined();
    expect(screen.queryByText(/Session expired/)).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(auth.logoutLocally).toHaveBeenCalledTimes(1);
  });

  it('says "Session expired" for any other 401', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        problemJson(401, { type: problemTypes.unauthorized, title: 'Unauthorized', status: 401 }),
      ),
    );
    renderShell();
    expect(await screen.findByText('Session expired. Please log in again for security.')).toBeDefined();
    expect(screen.queryByText(/removed from your organization/)).toBeNull();
  });
});

describe("the nav's hint", () => {
  it.each([
    [{ organizationRole: 'org_admin' }, 'team'],
    [{ organizationRole: 'org_member' }, 'signed-in'],
    [{ organizationRole: 'org_admin', kycStatus: 'pending' }, 'onboarding'],
    [{ emailVerified: false }, 'onboarding'],
    [{ role: 'admin' }, 'admin'],
  ] as [Partial<MeResponse>, string][])('for %o is %s', async (me, hint) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { ...approvedCommercial, organizationId: 'org_acme', ...me })),
    );
    renderShell();
    await waitFor(() => expect(localStorage.getItem('auth-hint')).toBe(hint));
  });
});

describe("an invitation's link opened by someone already signed in", () => {
  it('still starts the login, so the provider sees the invitation', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, approvedCommercial)),
    );
    renderShell('/auth/login?invitation=ticket1&organization=org_acme123');
    await waitFor(() => expect(auth.login).toHaveBeenCalledWith('/auth/login'));
  });

  it('sends a signed-in visitor of the plain login link on to their next step', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(200, { ...approvedCommercial, kycStatus: 'not_started', consentRecorded: false }),
      ),
    );
    renderShell('/auth/login?organization=org_acme123');
    expect(await screen.findByText('kyc start')).toBeDefined();
    expect(auth.login).not.toHaveBeenCalled();
  });
});
