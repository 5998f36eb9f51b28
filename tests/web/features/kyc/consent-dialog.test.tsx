// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consentRequest } from '#contracts/consent.ts';
import { consentDocuments } from '#contracts/consent-documents.ts';
import { problemTypes } from '#contracts/problem.ts';
import { installDialogShim, pressEscape } from '#tests/web/dialog-shim.ts';
import { json } from '#tests/web/stub-api.ts';
import { Component as KycStart } from '#web/features/kyc/screens/kyc-start.tsx';
import { baseMe, type FetchCall, problem, renderScreen, stubFetch } from './kyc-harness.tsx';

// The consent dialog on /kyc/start, as the user meets it: the exact statements whose version the
// ledger records, nothing sent until all three are given, a request that is exactly the contract,
// and every answer of the API turned into the message the issue names.

const document_ = consentDocuments.identity_verification;
const recorded = { success: true, consentId: 'cns_1', recordedAt: '2026-11-23T10:00:00.000Z' };

beforeAll(installDialogShim);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The API: `POST /api/consents` answers `consent`; `GET /api/me` then says consent is recorded. */
function api(consent: (call: FetchCall) => Response | Promise<Response>) {
  return stubFetch((call) => {
    if (call.url === '/api/consents') return consent(call);
    if (call.url === '/api/me') return json(200, { ...baseMe, consentRecorded: true });
    return json(404, {});
  });
}

async function openDialog() {
  const user = userEvent.setup();
  const view = renderScreen({ screen: KycStart, path: '/kyc/start' });
  await user.click(await screen.findByRole('button', { name: 'Provide Verification Consent' }));
  const dialog = screen.getByRole('dialog', { name: document_.title });
  const submit = within(dialog).getByRole('button', { name: 'Agree and Continue' });
  const checkAll = async () => {
    for (const statement of document_.statements) {
      await user.click(within(dialog).getByRole('checkbox', { name: statement.text }));
    }
  };
  return { user, view, dialog, submit, checkAll };
}

const posts = (calls: FetchCall[]) => calls.filter((call) => call.method === 'POST');

describe('the consent dialog', () => {
  it('opens as a modal dialog from "Provide Verification Consent", showing the document title and version', async () => {
    api(() => json(201, recorded));
    const { dialog } = await openDialog();

    expect(dialog.tagName).toBe('DIALOG');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(within(dialog).getByRole('heading', { name: 'Identity verification consent' })).toBeDefined();
    expect(within(dialog).getByText(`Version ${document_.version}`)).toBeDefined();
  });

  it('shows each of the three statements with the exact text the ledger records', async () => {
    api(() => json(201, recorded));
    const { dialog } = await openDialog();

    const boxes = within(dialog).getAllByRole('checkbox');
    expect(boxes).toHaveLength(3);
    expect(document_.statements.map((statement) => statement.id)).toEqual([
      'identity_verification_consent',
      'biometric_data_consent',
      'privacy_policy_consent',
    ]);
    for (const statement of document_.statements) {
      const box = within(dialog).getByRole<HTMLInputElement>('checkbox', { name: statement.text });
      expect(box.name).toBe(statement.id);
      expect(box.checked).toBe(false);
    }
  });

  it('keeps submit disabled until all three are checked, and says what is missing if pressed anyway', async () => {
    const { calls } = api(() => json(201, recorded));
    const { user, dialog, submit } = await openDialog();

    expect(submit.getAttribute('aria-disabled')).toBe('true');
    const [first, second, third] = document_.statements;
    await user.click(within(dialog).getByRole('checkbox', { name: first?.text }));
    await user.click(within(dialog).getByRole('checkbox', { name: third?.text }));
    expect(submit.getAttribute('aria-disabled')).toBe('true');

    await user.click(submit);
    const message = within(dialog).getByRole('alert');
    expect(message.textContent).toBe('Please provide all required consents to proceed');
    const missing = within(dialog).getByRole('checkbox', { name: second?.text });
    expect(missing.getAttribute('aria-invalid')).toBe('true');
    expect(missing.getAttribute('aria-describedby')).toBe(message.id);
    expect(document.activeElement).toBe(missing);
    expect(posts(calls)).toEqual([]);

    await user.click(missing);
    expect(submit.getAttribute('aria-disabled')).toBe('false');
    expect(within(dialog).queryByText('Please provide all required consents to proceed')).toBeNull();
  });

  it('sends exactly the contract: three true statements, the purpose, locale and the version shown, never a user_id', async () => {
    const { calls } = api(() => json(201, recorded));
    const { user, submit, checkAll } = await openDialog();

    await checkAll();
    await user.click(submit);

    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    const [post] = posts(calls);
    expect(post?.url).toBe('/api/consents');
    expect(post?.headers.Authorization).toBe('Bearer token');
    expect(post?.body).toStrictEqual({
      identity_verification_consent: true,
      biometric_data_consent: true,
      privacy_policy_consent: true,
      consent_type: 'identity_verification',
      locale: 'en',
      document_version: document_.version,
    });
    expect(consentRequest.safeParse(post?.body).success).toBe(true);
    expect(post?.body).not.toHaveProperty('user_id');
  });

  it('on success toasts "Consent recorded successfully!", refreshes the session and goes on to /kyc/persona', async () => {
    const { calls } = api(() => json(201, recorded));
    const { user, submit, checkAll, view } = await openDialog();

    await checkAll();
    await user.click(submit);

    expect((await screen.findByRole('status', { name: 'Notifications' })).textContent).toContain(
      'Consent recorded successfully! You can now verify your identity.',
    );
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/kyc/persona'));
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['POST /api/consents', 'GET /api/me']);
    expect(view.session().me.consentRecorded).toBe(true);
  });

  it('says "Failed to store consent. Please try again." when the API refuses, and stays open to retry', async () => {
    api(() => problem(500, 'about:blank', 'Internal Server Error'));
    const { user, dialog, submit, checkAll } = await openDialog();

    await checkAll();
    await user.click(submit);

    await waitFor(() =>
      expect(screen.getByRole('alert', { name: 'Errors' }).textContent).toContain(
        'Failed to store consent. Please try again.',
      ),
    );
    expect(within(dialog).getByRole('alert').textContent).toBe('Failed to store consent. Please try again.');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(submit.getAttribute('aria-disabled')).toBe('false');
  });

  it('says "Failed to store consent. Please try again." for a 4xx refusal too', async () => {
    api(() => problem(409, problemTypes.concurrentChange, 'Conflict'));
    const { user, submit, checkAll } = await openDialog();

    await checkAll();
    await user.click(submit);

    await waitFor(() =>
      expect(screen.getByRole('alert', { name: 'Errors' }).textContent).toContain(
        'Failed to store consent. Please try again.',
      ),
    );
  });

  it('says "An error occurred. Please try again." when the network fails', async () => {
    api(() => Promise.reject(new TypeError('Failed to fetch')));
    const { user, dialog, submit, checkAll } = await openDialog();

    await checkAll();
    await user.click(submit);

    await waitFor(() =>
      expect(screen.getByRole('alert', { name: 'Errors' }).textContent).toContain(
        'An error occurred. Please try again.',
      ),
    );
    expect((dialog as HTMLDialogElement).open).toBe(true);
  });

  it('sends a user whose email the API says is unverified to Verify Your Email', async () => {
    api(() => problem(403, problemTypes.emailNotVerified, 'Forbidden'));
    const { user, submit, checkAll, view } = await openDialog();

    await checkAll();
    await user.click(submit);

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/verification-required'));
    expect(screen.queryByText('Failed to store consent. Please try again.')).toBeNull();
  });

  it('closes on Escape and gives focus back to the button that opened it', async () => {
    api(() => json(201, recorded));
    const { dialog } = await openDialog();
    const opener = screen.getByRole('button', { name: 'Provide Verification Consent' });

    act(() => pressEscape(dialog));

    expect((dialog as HTMLDialogElement).open).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('cannot be closed while saving: Escape is refused, Cancel does nothing, and checkboxes are locked', async () => {
    let answer: (response: Response) => void = () => {};
    api(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { user, dialog, submit, checkAll, view } = await openDialog();

    await checkAll();
    await user.click(submit);
    await screen.findByRole('button', { name: 'Saving...' });

    expect(dialog.getAttribute('closedby')).toBe('none');
    act(() => pressEscape(dialog));
    expect((dialog as HTMLDialogElement).open).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((dialog as HTMLDialogElement).open).toBe(true);
    // A browser that closes it anyway (Chrome lets a repeated Escape through) gets it back.
    act(() => (dialog as HTMLDialogElement).close());
    expect((dialog as HTMLDialogElement).open).toBe(true);
    for (const box of within(dialog).getAllByRole<HTMLInputElement>('checkbox')) {
      expect(box.matches(':disabled')).toBe(true);
    }

    await act(async () => answer(json(201, recorded)));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/kyc/persona'));
  });

  it('closes with Cancel when not saving', async () => {
    api(() => json(201, recorded));
    const { user, dialog } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect((dialog as HTMLDialogElement).open).toBe(false);
  });
});
