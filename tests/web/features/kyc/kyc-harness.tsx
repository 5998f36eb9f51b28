import { render } from '@testing-library/react';
import { type ComponentType, useCallback, useMemo, useState } from 'react';
import { createMemoryRouter, type InitialEntry, Outlet, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import { type MeResponse, meResponse } from '#contracts/me.ts';
import { signedInRouteKeys } from '#contracts/signed-in-route-keys.ts';
import { problemJson } from '#tests/web/stub-api.ts';
import { ToastProvider } from '#web/components/toast.tsx';
import { paths } from '#web/config/paths.ts';
import { createApiClient } from '#web/lib/api-client.ts';
import { type Session, SessionContext } from '#web/lib/session.ts';

// A stand-in for the app shell around one KYC screen: the real API client (with a token and a
// stubbed `fetch`), a session whose `refreshMe()` asks `GET /api/me` and hands the answer to the
// screen like the shell does, the real toasts, and a memory router whose other routes only say
// where the user landed.

export const baseMe: MeResponse = {
  userId: 'auth0|kyc-user',
  email: 'dana@acme-pharma.example',
  emailVerified: true,
  name: 'Dana Example',
  organizationName: 'Acme Pharma',
  organizationType: 'commercial',
  organizationId: null,
  organizationRole: null,
  role: 'user',
  kycStatus: 'not_started',
  consentRecorded: false,
  consentWithdrawn: false,
  kycReason: null,
  kycNewAttemptAllowed: false,
  kycAttempts: { used: 1, max: 3 },
  deletionRequest: null,
};

export function problem(status: number, type: string, title = 'Refused'): Response {
  return problemJson(status, { type, title, status });
}

export interface FetchCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

/** Stubs `fetch` with `answer` and records every call with its parsed JSON body. */
export function stubFetch(answer: (call: FetchCall) => Response | Promise<Response>) {
  const calls: FetchCall[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const call: FetchCall = {
      method: init.method ?? 'GET',
      url,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: { ...(init.headers as Record<string, string>) },
    };
    calls.push(call);
    return answer(call);
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, calls };
}

let holdsTaken = 0;

/** What the shell's `holdActivity` does, counted: a release counts once, however often called. */
function holdCounter(): () => void {
  holdsTaken++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holdsTaken--;
  };
}

/** How many session-activity holds the screens hold now (the verification widget's, ADR 0057). */
export function activityHolds(): number {
  return holdsTaken;
}

function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{`${location.pathname}${location.search}`}</p>;
}

function FakeShell({
  initialMe,
  onSession,
}: {
  initialMe: MeResponse;
  onSession: (session: Session) => void;
}) {
  const [me, setMe] = useState(initialMe);
  const api = useMemo(
    () =>
      createApiClient(signedInRouteKeys, {
        getAccessToken: async () => 'token',
        onUnauthorized: () => undefined,
      }),
    [],
  );
  const refreshMe = useCallback(async () => {
    const fresh = await api.call('GetMe', { response: meResponse });
    setMe(fresh);
    return fresh;
  }, [api]);
  // Stable, like the shell's: screens may depend on its identity.
  const refreshSpy = useMemo(() => vi.fn(refreshMe), [refreshMe]);
  const logout = useMemo(() => vi.fn(), []);
  // The session rules' hold (the verification widget): `held()` says how many are taken.
  const holdActivity = useMemo(() => vi.fn(holdCounter), []);
  const accessToken = useMemo(() => vi.fn(async () => 'access-token'), []);
  const session = useMemo<Session>(
    () => ({
      api,
      me,
      refreshMe: refreshSpy,
      accessToken,
      logout,
      holdActivity,
      tokenOrganizationId: undefined,
      loginThrough: async () => {},
    }),
    [api, me, refreshSpy, accessToken, logout, holdActivity],
  );
  onSession(session);
  return (
    <SessionContext.Provider value={session}>
      <Outlet />
    </SessionContext.Provider>
  );
}

export function renderScreen(options: {
  screen: ComponentType;
  path: string;
  me?: Partial<MeResponse>;
  initialEntry?: InitialEntry;
}) {
  let current: Session | undefined;
  const screenPaths = [options.path];
  const others = Object.values(paths)
    .map((entry) => entry.path)
    .filter((path) => !screenPaths.includes(path));
  const router = createMemoryRouter(
    [
      {
        element: (
          <FakeShell
            initialMe={{ ...baseMe, ...options.me }}
            onSession={(session) => {
              current = session;
            }}
          />
        ),
        children: [
          { path: options.path, Component: options.screen },
          ...others.map((path) => ({ path, Component: Landed })),
        ],
      },
    ],
    { initialEntries: [options.initialEntry ?? options.path] },
  );
  const view = render(
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>,
  );
  return {
    ...view,
    router,
    /** The session the screen currently sees. */
    session: () => {
      if (!current) throw new Error('the screen has not rendered');
      return current;
    },
  };
}
