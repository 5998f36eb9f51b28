// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { consentDocuments } from '#contracts/consent-documents.ts';
import type { KycStatus } from '#contracts/kyc.ts';
import type { MeResponse } from '#contracts/me.ts';
import { installDialogShim } from '#tests/web/dialog-shim.ts';
import { json } from '#tests/web/stub-api.ts';
import { submittedState } from '#web/features/kyc/lib/submission.ts';
import { Component as KycStatusScreen } from '#web/features/kyc/screens/kyc-status.tsx';
import { FakeSocket } from './fake-realtime.ts';
import { baseMe, renderScreen, stubFetch } from './kyc-harness.tsx';

// The status screens as the user sees them: the server's status (pushed while pending, polled while
// the push channel is down, paused in a hidden tab, stopped once decided), the approved redirect after 3000 ms, the rejected screen's
// contact link, and the defense and government wording.

const commercial = '/auth/kyc-complete';
const defense = '/auth/kyc-complete-defense';

let visibility: DocumentVisibilityState = 'visible';
beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** `GET /api/me` answers with the status `next()` gives at the time of each call. */
function serverSays(next: () => KycStatus, me: Partial<MeResponse> = {}) {
  return stubFetch((call) =>
    call.url === '/api/me' ? json(200, { ...baseMe, ...me, kycStatus: next() }) : json(404, {}),
  );
}

function show(path: string, me: Partial<MeResponse>, state?: unknown) {
  return renderScreen({
    screen: KycStatusScreen,
    path,
    me,
    initialEntry: state === undefined ? path : { pathname: path, state },
  });
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
const meCalls = (calls: { url: string }[]) => calls.filter((call) => call.url === '/api/me').length;

describe('pending', () => {
  it('says the verification is in progress, offers Return to Home, and, with no push channel, asks the server after 1, 2, 5, then every 10 s', async () => {
    const { calls } = serverSays(() => 'pending');
    show(commercial, { kycStatus: 'pending', consentRecorded: true });

    expect(heading()).toBe('Verification In Progress');
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(meCalls(calls)).toBe(0);

    // Checks at 1 s, 3 s, 8 s, then every 10 s.
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(meCalls(calls)).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(meCalls(calls)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(meCalls(calls)).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(4999));
    expect(meCalls(calls)).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(meCalls(calls)).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(meCalls(calls)).toBe(4);
    await act(() => vi.advanceTimersByTimeAsync(40_000));
    expect(meCalls(calls)).toBe(8);
  });

  it('pauses while the tab is hidden and asks again as soon as it is visible', async () => {
    const { calls } = serverSays(() => 'pending');
    show(commercial, { kycStatus: 'pending', consentRecorded: true });

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(meCalls(calls)).toBe(1);

    setVisibility('hidden');
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(meCalls(calls)).toBe(1);

    setVisibility('visible');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(meCalls(calls)).toBe(2);
    // The back-off goes on where it was: the third check 5 s later.
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(meCalls(calls)).toBe(3);
  });

  it('keeps polling after a failed check', async () => {
    let failing = true;
    const { calls } = stubFetch((call) =>
      call.url === '/api/me' && !failing
        ? json(200, { ...baseMe, kycStatus: 'pending' })
        : json(503, { message: 'unavailable' }),
    );
    show(commercial, { kycStatus: 'pending', consentRecorded: true });

    await act(() => vi.advanceTimersByTimeAsync(1000));
    failing = false;
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(meCalls(calls)).toBe(2);
    expect(heading()).toBe('Verification In Progress');
  });

  it('turns approved when the server says so, stops polling and opens the dashboard 3000 ms later', async () => {
    let status: KycStatus = 'pending';
    const { calls } = serverSays(() => status);
    const view = show(commercial, { kycStatus: 'pending', consentRecorded: true });

    status = 'approved';
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(heading()).toBe('Verification Approved');
    expect(meCalls(calls)).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(view.router.state.location.pathname).toBe(commercial);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(view.router.state.location.pathname).toBe('/commercial-dashboard');
    expect(meCalls(calls)).toBe(1);
  });

  it('uses the defense wording: "Security Clearance In Progress", 2-5 business days', () => {
    serverSays(() => 'pending');
    show(defense, { kycStatus: 'pending', consentRecorded: true, organizationType: 'defense' });

    expect(heading()).toBe('Security Clearance In Progress');
    expect(screen.getByText(/2-5 business days/)).toBeDefined();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toBeDefined();
  });
});

describe('right after submitting', () => {
  it('shows not_started as pending (the webhook has not arrived yet) and polls', async () => {
    let status: KycStatus = 'not_started';
    const { calls } = serverSays(() => status);
    show(commercial, { kycStatus: 'not_started', consentRecorded: true }, submittedState());

    expect(heading()).toBe('Verification In Progress');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(meCalls(calls)).toBe(1);
    status = 'pending';
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(heading()).toBe('Verification In Progress');
  });

  it('without a submission, sends a not_started user to their next step', () => {
    serverSays(() => 'not_started');
    const withConsent = show(commercial, { kycStatus: 'not_started', consentRecorded: true });
    expect(withConsent.router.state.location.pathname).toBe('/kyc/persona');
    cleanup();

    const withoutConsent = show(commercial, { kycStatus: 'not_started', consentRecorded: false });
    expect(withoutConsent.router.state.location.pathname).toBe('/kyc/start');
  });

  it('does not count a submission from long ago', () => {
    serverSays(() => 'not_started');
    const stale = submittedState(Date.now() - 60 * 60 * 1000);
    const view = show(commercial, { kycStatus: 'not_started', consentRecorded: true }, stale);
    expect(view.router.state.location.pathname).toBe('/kyc/persona');
  });
});

describe('approved', () => {
  it('shows approved and redirects to /commercial-dashboard after 3000 ms (commercial)', async () => {
    serverSays(() => 'approved');
    const view = show(commercial, { kycStatus: 'approved', consentRecorded: true });

    expect(heading()).toBe('Verification Approved');
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('Taking you to your dashboard...');
    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(view.router.state.location.pathname).toBe(commercial);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(view.router.state.location.pathname).toBe('/commercial-dashboard');
  });

  it('redirects to /defense-dashboard after 3000 ms (defense and government)', async () => {
    serverSays(() => 'approved');
    const view = show(defense, {
      kycStatus: 'approved',
      consentRecorded: true,
      organizationType: 'government',
    });

    expect(heading()).toBe('Security Clearance Approved');
    expect(screen.getByText('Taking you to the Defense and Government dashboard...')).toBeDefined();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(view.router.state.location.pathname).toBe('/defense-dashboard');
  });

  it('does not poll', async () => {
    const { calls } = serverSays(() => 'approved');
    show(commercial, { kycStatus: 'approved', consentRecorded: true });
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(meCalls(calls)).toBe(0);
  });
});

describe('rejected', () => {
  it('shows the reason, the contact page and no Verify again while no new attempt is allowed; does not poll', async () => {
    const { calls } = serverSays(() => 'rejected');
    const view = show(commercial, {
      kycStatus: 'rejected',
      consentRecorded: true,
      kycReason: { code: 'document_unreadable', message: 'The photo of the document was unreadable.' },
    });

    expect(heading()).toBe('Verification Unsuccessful');
    expect(screen.getByText('The photo of the document was unreadable.')).toBeTruthy();
    expect(screen.getByText('Attempt 1 of 3.')).toBeTruthy();
    const contact = screen.getByRole('link', { name: 'Contact Support' });
    expect(contact.getAttribute('href')).toBe('/contact');
    expect(screen.queryByRole('button', { name: 'Verify again' })).toBeNull();
    expect(screen.getByText('contact@platform.example')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(meCalls(calls)).toBe(0);
    expect(view.router.state.location.pathname).toBe(commercial);
  });

  it('points defense and government organizations to the defense team', () => {
    serverSays(() => 'rejected');
    show(defense, { kycStatus: 'rejected', consentRecorded: true, organizationType: 'defense' });

    expect(heading()).toBe('Security Clearance Not Granted');
    expect(screen.getByRole('link', { name: 'Contact the Defense Team' }).getAttribute('href')).toBe(
      '/contact',
    );
    expect(screen.getByText('defense@platform.example')).toBeTruthy();
  });

  it('offers Verify again once a reviewer allowed a new attempt', () => {
    serverSays(() => 'rejected');
    show(commercial, {
      kycStatus: 'rejected',
      consentRecorded: true,
      kycNewAttemptAllowed: true,
      kycReason: { code: 'selfie_mismatch', message: 'The selfie did not match the photo on the document.' },
    });
    expect(screen.getByRole('button', { name: 'Verify again' })).toBeTruthy();
    expect(screen.getByText(/A reviewer has allowed you a new attempt/)).toBeTruthy();
  });

  it('turns rejected while the user waits, and the polling stops', async () => {
    let status: KycStatus = 'pending';
    const { calls } = serverSays(() => status);
    show(commercial, { kycStatus: 'pending', consentRecorded: true });

    status = 'rejected';
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(heading()).toBe('Verification Unsuccessful');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(meCalls(calls)).toBe(1);
  });
});

describe('decisions pushed on the realtime channel', () => {
  // The screen loads the client lazily; loaded once here, its import resolves within a settle.
  beforeAll(async () => {
    await import('#web/features/kyc/lib/decision-channel.ts');
  });
  const realtime = { httpDomain: 'api.realtime.example', realtimeDomain: 'rt.realtime.example' };
  const config = {
    stage: 'test',
    auth0: {
      domain: 'tenant.example',
      clientId: 'spa',
      audience: 'https://api.example',
      claimsNamespace: 'https://example/',
    },
    persona: { environmentId: 'env' },
    realtime,
  };

  function serverWithChannel(next: () => KycStatus) {
    FakeSocket.reset();
    vi.stubGlobal('WebSocket', FakeSocket);
    return stubFetch((call) => {
      if (call.url === '/config.json') return json(200, config);
      return call.url === '/api/me' ? json(200, { ...baseMe, kycStatus: next() }) : json(404, {});
    });
  }
  const settle = () => act(() => vi.advanceTimersByTimeAsync(0));

  it("subscribes to the user's own channel with the access token, and shows the pushed decision without polling", async () => {
    let status: KycStatus = 'pending';
    const { calls } = serverWithChannel(() => status);
    const view = show(commercial, { kycStatus: 'pending', consentRecorded: true });
    await settle();

    const socket = FakeSocket.last;
    expect(socket.url).toBe('wss://rt.realtime.example/event/realtime');
    expect(socket.protocols[0]).toBe('aws-appsync-event-ws');
    expect(socket.header()).toEqual({ host: 'api.realtime.example', Authorization: 'access-token' });
    socket.accept();
    await settle();
    expect(socket.subscribeMessage()).toMatchObject({
      type: 'subscribe',
      channel: '/kyc-decisions/auth0Q7CkycQ2Duser',
      authorization: { host: 'api.realtime.example', Authorization: 'access-token' },
    });
    // Once subscribed: one check for a decision that landed before, then nothing while it waits.
    expect(meCalls(calls)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(meCalls(calls)).toBe(1);

    status = 'approved';
    socket.push({ status: 'approved', occurredAt: '2026-01-01T00:00:00.000Z' });
    await settle();
    expect(meCalls(calls)).toBe(2);
    expect(heading()).toBe('Verification Approved');
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(view.router.state.location.pathname).toBe('/commercial-dashboard');
  });

  it('trusts the server, not the push: a push says approved while GET /api/me still says pending', async () => {
    const { calls } = serverWithChannel(() => 'pending');
    show(commercial, { kycStatus: 'pending', consentRecorded: true });
    await settle();
    FakeSocket.last.accept();
    await settle();
    FakeSocket.last.push({ status: 'approved', occurredAt: '2026-01-01T00:00:00.000Z' });
    await settle();
    expect(meCalls(calls)).toBe(2);
    expect(heading()).toBe('Verification In Progress');
  });

  it('polls with the back-off while the channel is down and stops once it is back', async () => {
    const { calls } = serverWithChannel(() => 'pending');
    show(commercial, { kycStatus: 'pending', consentRecorded: true });
    await settle();
    FakeSocket.last.accept();
    await settle();
    expect(meCalls(calls)).toBe(1);

    FakeSocket.last.drop();
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(meCalls(calls)).toBe(1);
    // The channel retries after 1 s (refused this time), the poll asks at 1 s, then at 3 s.
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(meCalls(calls)).toBe(2);
    FakeSocket.last.receive({ type: 'connection_error', errors: [{ errorType: 'UnauthorizedException' }] });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(meCalls(calls)).toBe(3);

    // Back after its 2 s back-off: one check on subscribing, then no more polling.
    FakeSocket.last.accept();
    await settle();
    expect(meCalls(calls)).toBe(4);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(meCalls(calls)).toBe(4);
  });

  it('closes the channel once the decision is shown', async () => {
    let status: KycStatus = 'pending';
    serverWithChannel(() => status);
    show(commercial, { kycStatus: 'pending', consentRecorded: true });
    await settle();
    const socket = FakeSocket.last;
    socket.accept();
    await settle();
    status = 'rejected';
    socket.push({ status: 'rejected', occurredAt: '2026-01-01T00:00:00.000Z' });
    await settle();
    expect(heading()).toBe('Verification Unsuccessful');
    expect(socket.closed).toBe(true);
    expect(socket.sent.at(-1)).toMatchObject({ type: 'unsubscribe', id: socket.subscribeMessage()?.id });
  });
});

describe('stopped by a withdrawal of consent (ADR 0075)', () => {
  installDialogShim();
  const stoppedBody =
    'You withdrew your consent to identity verification, so we stopped your verification before it was decided. It will not be decided, and no new verification can start until you give your consent again.';

  /** The server: pending, consent withdrawn until POST /api/consents records it again. */
  function withdrawnServer(status: KycStatus = 'pending') {
    let consented = false;
    return stubFetch((call) => {
      if (call.url === '/api/consents' && call.method === 'POST') {
        consented = true;
        return json(201, { success: true, consentId: 'cns_2', recordedAt: '2026-11-27T10:00:00.000Z' });
      }
      if (call.url === '/api/me')
        return json(200, {
          ...baseMe,
          kycStatus: status,
          consentRecorded: consented,
          consentWithdrawn: !consented,
        });
      return json(404, {});
    });
  }

  it('says the verification was stopped because the person withdrew consent, and waits for no decision', async () => {
    const { calls } = withdrawnServer();
    show(commercial, { kycStatus: 'pending', consentRecorded: false, consentWithdrawn: true });

    expect(heading()).toBe('Verification Stopped');
    expect(screen.getByText(stoppedBody)).toBeDefined();
    expect(screen.queryByText(/being reviewed/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Give Consent Again' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Your Account' }).getAttribute('href')).toBe('/user-account');
    // Nothing to wait for: no polling.
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(meCalls(calls)).toBe(0);
  });

  it('says the same to defense and government organizations', () => {
    withdrawnServer();
    show(defense, { kycStatus: 'pending', organizationType: 'defense', consentWithdrawn: true });
    expect(heading()).toBe('Verification Stopped');
    expect(screen.getByText(stoppedBody)).toBeDefined();
  });

  it('offers the consent dialog; once the consent is recorded a submitted verification is in progress again', async () => {
    const { calls } = withdrawnServer();
    show(commercial, { kycStatus: 'pending', consentRecorded: false, consentWithdrawn: true });

    fireEvent.click(screen.getByRole('button', { name: 'Give Consent Again' }));
    const dialog = screen.getByRole('dialog', { name: consentDocuments.identity_verification.title });
    for (const statement of consentDocuments.identity_verification.statements) {
      fireEvent.click(within(dialog).getByRole('checkbox', { name: statement.text }));
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Agree and Continue' }));
    await act(() => vi.advanceTimersByTimeAsync(0));

    expect(calls.filter((call) => call.url === '/api/consents')).toHaveLength(1);
    expect(heading()).toBe('Verification In Progress');
  });

  it('right after submitting a verification that was then stopped, a new consent leads to /kyc/persona', async () => {
    withdrawnServer('not_started');
    const view = show(
      commercial,
      { kycStatus: 'not_started', consentRecorded: false, consentWithdrawn: true },
      submittedState(),
    );
    expect(heading()).toBe('Verification Stopped');

    fireEvent.click(screen.getByRole('button', { name: 'Give Consent Again' }));
    const dialog = screen.getByRole('dialog', { name: consentDocuments.identity_verification.title });
    for (const statement of consentDocuments.identity_verification.statements) {
      fireEvent.click(within(dialog).getByRole('checkbox', { name: statement.text }));
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Agree and Continue' }));
    await act(() => vi.advanceTimersByTimeAsync(0));

    expect(view.router.state.location.pathname).toBe('/kyc/persona');
  });

  it('a new attempt a reviewer allowed asks for the consent first, then offers Verify again', async () => {
    let consented = false;
    stubFetch((call) => {
      if (call.url === '/api/consents' && call.method === 'POST') {
        consented = true;
        return json(201, { success: true, consentId: 'cns_3', recordedAt: '2026-11-27T10:00:00.000Z' });
      }
      if (call.url === '/api/me')
        return json(200, {
          ...baseMe,
          kycStatus: 'rejected',
          kycNewAttemptAllowed: true,
          consentRecorded: consented,
          consentWithdrawn: !consented,
        });
      return json(404, {});
    });
    show(commercial, { kycStatus: 'rejected', kycNewAttemptAllowed: true, consentWithdrawn: true });

    expect(heading()).toBe('Verification Unsuccessful');
    expect(
      screen.getByText(
        'A reviewer has allowed you a new attempt. You withdrew your consent to identity verification, so give it again first; then start the new attempt here.',
      ),
    ).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Verify again' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Give Consent Again' }));
    const dialog = screen.getByRole('dialog', { name: consentDocuments.identity_verification.title });
    for (const statement of consentDocuments.identity_verification.statements) {
      fireEvent.click(within(dialog).getByRole('checkbox', { name: statement.text }));
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Agree and Continue' }));
    await act(() => vi.advanceTimersByTimeAsync(0));

    expect(screen.getByRole('button', { name: 'Verify again' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Give Consent Again' })).toBeNull();
  });

  it('a decided verification keeps its screen: the decision stands', () => {
    withdrawnServer();
    show(commercial, { kycStatus: 'rejected', consentWithdrawn: true });
    expect(heading()).toBe('Verification Unsuccessful');
  });
});
