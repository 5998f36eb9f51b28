import { render } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { MeResponse } from '#contracts/me.ts';
import { signedInRouteKeys } from '#contracts/signed-in-route-keys.ts';
import { ToastProvider } from '#web/components/toast.tsx';
import { createApiClient } from '#web/lib/api-client.ts';
import { type Session, SessionContext } from '#web/lib/session.ts';

// A signed-in screen as the app shell renders it: inside the session (the real API client with a
// fake token; tests stub `fetch`), the toast provider and a router. Any other path renders a
// marker naming where the screen sent the user.

export const approvedCommercial: MeResponse = {
  userId: 'auth0|casey',
  email: 'casey@acme-pharma.example',
  emailVerified: true,
  name: 'Casey Commercial',
  organizationName: 'Acme Pharma',
  organizationType: 'commercial',
  organizationId: null,
  organizationRole: null,
  role: 'user',
  kycStatus: 'approved',
  consentRecorded: true,
  consentWithdrawn: false,
  kycReason: null,
  kycNewAttemptAllowed: false,
  kycAttempts: { used: 1, max: 3 },
  deletionRequest: null,
};

function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">{location.pathname}</p>;
}

export function renderScreen(
  Screen: ComponentType,
  options: { path: string; me?: Partial<MeResponse>; session?: Partial<Session>; state?: unknown },
) {
  const onUnauthorized = vi.fn();
  const session: Session = {
    api: createApiClient(signedInRouteKeys, { getAccessToken: async () => 'token', onUnauthorized }),
    me: { ...approvedCommercial, ...options.me },
    refreshMe: vi.fn(async () => session.me),
    holdActivity: () => () => {},
    tokenOrganizationId: undefined,
    loginThrough: async () => {},
    accessToken: async () => 'token',
    logout: vi.fn(),
    ...options.session,
  };
  const router = createMemoryRouter(
    [
      { path: options.path, Component: Screen },
      { path: '*', Component: Elsewhere },
    ],
    {
      initialEntries: [
        options.state === undefined ? options.path : { pathname: options.path, state: options.state },
      ],
    },
  );
  const view = render(
    <ToastProvider>
      <SessionContext.Provider value={session}>
        <RouterProvider router={router} />
      </SessionContext.Provider>
    </ToastProvider>,
  );
  return { ...view, router, session, onUnauthorized };
}
