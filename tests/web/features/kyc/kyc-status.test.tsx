// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KycStatus } from '#contracts/kyc.ts';
import type { MeResponse } from '#contracts/me.ts';
import { json } from '#tests/web/stub-api.ts';
import { submittedState } from '#web/features/kyc/lib/submission.ts';
import { Component as KycStatusScreen } from '#web/features/kyc/screens/kyc-status.tsx';
import { baseMe, renderScreen, stubFetch } from './kyc-harness.tsx';

// The status screens as the user sees them: the server's status (polled while pending, paused in a
// hidden tab, stopped once decided), the approved redirect after 3000 ms, the rejected screen's
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
  it('says the verification is in progress, offers Return to Home, and asks the server soon, then every 4 s', async () => {
    const { calls } = serverSays(() => 'pending');
    show(commercial, { kycStatus: 'pending', consentRecorded: true });

    expect(heading()).toBe('Verification In Progress');
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(meCalls(calls)).toBe(0);

    // Checks at 0.5 s, 1.5 s, 3.5 s, then every 4 s.
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(meCalls(calls)).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(meCalls(calls)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(meCalls(calls)).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(meCalls(calls)).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(3999));
    expect(meCalls(calls)).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(meCalls(calls)).toBe(4);
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(meCalls(calls)).toBe(5);
    await act(() => vi.advanceTimersByTimeAsync(40_000));
    expect(meCalls(calls)).toBe(15);
  });

  it('pauses while the tab is hidden and asks again as soon as it is visible', async () => {
    const { calls } = serverSays(() => 'pending');
    show(commercial, { kycStatus: 'pending', consentRecorded: true });

    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(meCalls(calls)).toBe(1);

    setVisibility('hidden');
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(meCalls(calls)).toBe(1);

    setVisibility('visible');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(meCalls(calls)).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(2000));
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

    await act(() => vi.advanceTimersByTimeAsync(500));
    failing = false;
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(meCalls(calls)).toBe(2);
    expect(heading()).toBe('Verification In Progress');
  });

  it('turns approved when the server says so, stops polling and opens the dashboard 3000 ms later', async () => {
    let status: KycStatus = 'pending';
    const { calls } = serverSays(() => status);
    const view = show(commercial, { kycStatus: 'pending', consentRecorded: true });

    status = 'approved';
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(heading()).toBe('Verification Approved');
    expect(meCalls(calls)).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(view.router.state.location.pathname).toBe(commercial);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(view.router.state.location.pathname).toBe('/dashboard');
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
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(meCalls(calls)).toBe(1);
    status = 'pending';
    await act(() => vi.advanceTimersByTimeAsync(1000));
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
  it('shows approved and redirects to /dashboard after 3000 ms (commercial)', async () => {
    serverSays(() => 'approved');
    const view = show(commercial, { kycStatus: 'approved', consentRecorded: true });

    expect(heading()).toBe('Verification Approved');
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('Taking you to your dashboard...');
    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(view.router.state.location.pathname).toBe(commercial);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(view.router.state.location.pathname).toBe('/dashboard');
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
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(heading()).toBe('Verification Unsuccessful');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(meCalls(calls)).toBe(1);
  });
});
