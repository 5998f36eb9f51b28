// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import type { InquiryError } from 'persona';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeResponse } from '#contracts/me.ts';
import { problemTypes } from '#contracts/problem.ts';
import { installDialogShim, pressEscape } from '#tests/web/dialog-shim.ts';
import { json } from '#tests/web/stub-api.ts';
import { isJustSubmitted } from '#web/features/kyc/lib/submission.ts';
import { Component as KycPersona } from '#web/features/kyc/screens/kyc-persona.tsx';
import { activityHolds, problem, renderScreen } from './kyc-harness.tsx';
import { quietConsoleError, stubPersonaBackend } from './persona-harness.ts';

// /kyc/persona with the SDK replaced: what the user sees and where they go for each thing the flow
// (or the backend) reports. The SDK's own protocol is exercised in the browser journeys.

interface Handlers {
  onReady: (() => void) | null;
  onComplete: ((result: { inquiryId: string; status: string; fields: object }) => void) | null;
  onCancel: ((result: { inquiryId?: string; sessionToken?: string }) => void) | null;
  onError: ((error: InquiryError) => void) | null;
  host: string | null;
}

const sdk = vi.hoisted(() => ({
  frames: [] as HTMLIFrameElement[],
  handlers: undefined as unknown,
  unsubscribe: undefined as unknown,
}));

vi.mock('persona', () => ({
  setupIframe: vi.fn(
    (iframe: HTMLIFrameElement, containerId: string, _flow: string, options: { host?: string }) => {
      iframe.src = `http://${options.host}/widget?container-id=${containerId}`;
      iframe.setAttribute('role', 'dialog');
      iframe.setAttribute('aria-modal', 'true');
      sdk.frames.push(iframe);
      return iframe;
    },
  ),
  setupEvents: vi.fn((_containerId: string, handlers: unknown) => {
    sdk.handlers = handlers;
    sdk.unsubscribe = vi.fn();
    return sdk.unsubscribe;
  }),
}));

const persona = await import('persona');
const handlers = () => {
  if (!sdk.handlers) throw new Error('the flow was not opened');
  return sdk.handlers as Handlers;
};

beforeAll(installDialogShim);
beforeEach(() => {
  sdk.frames = [];
  sdk.handlers = undefined;
  vi.mocked(persona.setupIframe).mockClear();
  vi.mocked(persona.setupEvents).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const inquiry = { inquiryId: 'inq_123', sessionToken: 'sess_abc' };

function open(me: Partial<MeResponse> = {}) {
  return renderScreen({
    screen: KycPersona,
    path: '/kyc/persona',
    me: { consentRecorded: true, ...me },
  });
}

async function opened(me: Partial<MeResponse> = {}) {
  const view = open(me);
  await waitFor(() => expect(sdk.handlers).toBeDefined());
  const dialog = screen.getByRole('dialog', {
    name: 'Identity verification with Persona',
  }) as HTMLDialogElement;
  const frame = sdk.frames[0] as HTMLIFrameElement;
  return { view, dialog, frame };
}

const notifications = () => screen.getByRole('status', { name: 'Notifications' }).textContent;
const errors = () => screen.getByRole('alert', { name: 'Errors' }).textContent;

describe('opening the inquiry', () => {
  it('asks the backend for the inquiry, then opens it in a modal with the config from /config.json', async () => {
    const { calls } = stubPersonaBackend(() => json(200, inquiry));
    const { dialog, frame } = await opened();

    const post = calls.find((call) => call.url === '/api/me/kyc/inquiry');
    expect(post?.method).toBe('POST');
    expect(post?.body).toBeUndefined();
    expect(post?.headers.Authorization).toBe('Bearer token');

    expect(persona.setupIframe).toHaveBeenCalledOnce();
    const [, containerId, flow, options] = vi.mocked(persona.setupIframe).mock.calls[0] ?? [];
    expect(flow).toBe('embedded');
    expect(options).toEqual({
      inquiryId: 'inq_123',
      sessionToken: 'sess_abc',
      environmentId: 'env_LocalSandbox0001',
      host: 'localhost:4020',
      iframeTitle: 'Verify your identity',
      // Persona's flow in the page's language (the English build here; ADR 0089).
      language: 'en',
    });
    expect(vi.mocked(persona.setupEvents).mock.calls[0]?.[0]).toBe(containerId);
    expect(handlers().host).toBe('localhost:4020');

    expect(dialog.open).toBe(true);
    expect(dialog.contains(frame)).toBe(true);
    // Our <dialog> is the modal: the frame does not claim to be one.
    expect(frame.hasAttribute('role')).toBe(false);
    expect(frame.hasAttribute('aria-modal')).toBe(false);
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('Preparing your verification...');
  });

  it('tells the flow to open once it is ready', async () => {
    stubPersonaBackend(() => json(200, inquiry));
    const { frame } = await opened();
    const post = vi.spyOn(frame.contentWindow as Window, 'postMessage').mockImplementation(() => undefined);

    act(() => handlers().onReady?.());

    expect(post).toHaveBeenCalledWith({ action: 'open', metadata: {} }, 'http://localhost:4020');
    expect(
      screen.getByText('Your verification is open in the Persona window. Follow the steps there.'),
    ).toBeDefined();
  });

  it('goes straight to the status screen when the inquiry is already submitted (no session token)', async () => {
    stubPersonaBackend(() => json(200, { inquiryId: 'inq_123' }));
    const view = open();

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/kyc-complete'));
    expect(isJustSubmitted(view.router.state.location.state)).toBe(true);
    expect(persona.setupIframe).not.toHaveBeenCalled();
  });

  it('asks Escape to exit the flow instead of closing it underneath', async () => {
    stubPersonaBackend(() => json(200, inquiry));
    const { dialog, frame } = await opened();
    const post = vi.spyOn(frame.contentWindow as Window, 'postMessage').mockImplementation(() => undefined);

    act(() => pressEscape(dialog));

    expect(dialog.open).toBe(true);
    expect(post).toHaveBeenCalledWith(
      { action: 'exit', metadata: { force: false } },
      'http://localhost:4020',
    );
  });
});

describe('what the flow reports', () => {
  it('complete: toasts "Verification submitted successfully." and opens the status screen as just submitted', async () => {
    stubPersonaBackend(() => json(200, inquiry));
    const { view, dialog } = await opened();

    act(() => handlers().onComplete?.({ inquiryId: 'inq_123', status: 'completed', fields: {} }));

    expect(notifications()).toContain('Verification submitted successfully.');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/kyc-complete'));
    expect(isJustSubmitted(view.router.state.location.state)).toBe(true);
    expect(dialog.isConnected).toBe(false);
  });

  it('complete for a defense or government organization: the defense status screen', async () => {
    stubPersonaBackend(() => json(200, inquiry));
    const { view } = await opened({ organizationType: 'government' });

    act(() => handlers().onComplete?.({ inquiryId: 'inq_123', status: 'completed', fields: {} }));

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/kyc-complete-defense'));
  });

  it('cancel: toasts "Verification canceled" and goes to /dashboard', async () => {
    stubPersonaBackend(() => json(200, inquiry));
    const { view } = await opened();

    act(() => handlers().onCancel?.({ inquiryId: 'inq_123', sessionToken: 'sess_abc' }));

    expect(notifications()).toContain('Verification canceled');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'));
  });

  it('error: toasts "Verification failed. Please try again." and goes to /dashboard', async () => {
    const consoleError = quietConsoleError();
    stubPersonaBackend(() => json(200, inquiry));
    const { view } = await opened();

    act(() => handlers().onError?.({ status: 409, code: 'unauthenticated', message: 'expired' }));

    expect(errors()).toContain('Verification failed. Please try again.');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'));
    expect(consoleError).toHaveBeenCalled();
  });

  it('tears the flow down when the screen goes away', async () => {
    stubPersonaBackend(() => json(200, inquiry));
    const { view, frame } = await opened();
    const post = vi.spyOn(frame.contentWindow as Window, 'postMessage').mockImplementation(() => undefined);

    await act(() => view.router.navigate('/user-account'));

    expect(post).toHaveBeenCalledWith({ action: 'destroy', metadata: {} }, 'http://localhost:4020');
    expect(sdk.unsubscribe).toHaveBeenCalledOnce();
    expect(frame.isConnected).toBe(false);
  });
});

describe('the session rules while the widget is open (ADR 0057)', () => {
  // The widget is a cross-origin frame: the page never hears the user's mouse and keys in it.
  it.each([
    ['completes', () => handlers().onComplete?.({ inquiryId: 'inq_123', status: 'completed', fields: {} })],
    ['is canceled', () => handlers().onCancel?.({ inquiryId: 'inq_123', sessionToken: 'sess_abc' })],
    ['fails', () => handlers().onError?.({ status: 409, code: 'unauthenticated', message: 'expired' })],
  ])('holds the inactivity rule from the moment it opens until the flow %s', async (_, report) => {
    quietConsoleError();
    stubPersonaBackend(() => json(200, inquiry));
    const view = open();
    expect(activityHolds()).toBe(0);
    await waitFor(() => expect(sdk.handlers).toBeDefined());
    expect(view.session().holdActivity).toHaveBeenCalledOnce();
    expect(activityHolds()).toBe(1);

    act(report);
    expect(activityHolds()).toBe(0);
    await waitFor(() => expect(view.router.state.location.pathname).not.toBe('/kyc/persona'));
    expect(activityHolds()).toBe(0);
  });

  it('releases the hold when the screen goes away with the widget open', async () => {
    stubPersonaBackend(() => json(200, inquiry));
    const { view } = await opened();
    expect(activityHolds()).toBe(1);
    await act(() => view.router.navigate('/user-account'));
    expect(activityHolds()).toBe(0);
  });

  it('takes no hold when there is no widget to open (already submitted)', async () => {
    stubPersonaBackend(() => json(200, { inquiryId: 'inq_123' }));
    const view = open();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/kyc-complete'));
    expect(view.session().holdActivity).not.toHaveBeenCalled();
  });
});

describe('when the inquiry cannot be started', () => {
  it('the backend refuses: "Unable to start verification. Please try again." and /dashboard', async () => {
    stubPersonaBackend(() => problem(502, 'about:blank', 'Bad Gateway'));
    const view = open();

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'));
    expect(errors()).toContain('Unable to start verification. Please try again.');
    expect(persona.setupIframe).not.toHaveBeenCalled();
  });

  it('the network fails: the same message', async () => {
    stubPersonaBackend(() => Promise.reject(new TypeError('Failed to fetch')));
    const view = open();

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'));
    expect(errors()).toContain('Unable to start verification. Please try again.');
  });

  it('the email is not verified: Verify Your Email', async () => {
    stubPersonaBackend(() => problem(403, problemTypes.emailNotVerified));
    const view = open();

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/verification-required'));
  });
});
