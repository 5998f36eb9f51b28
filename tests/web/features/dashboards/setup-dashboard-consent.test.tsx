// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consentDocuments } from '#contracts/consent-documents.ts';
import { installDialogShim } from '#tests/web/dialog-shim.ts';
import { baseMe, renderScreen, stubFetch } from '#tests/web/features/kyc/kyc-harness.tsx';
import { json } from '#tests/web/stub-api.ts';
import { Component as SetupDashboard } from '#web/features/dashboards/screens/setup-dashboard.tsx';

// /dashboard's "Provide Verification Consent" opens the consent dialog on the dashboard itself
// (ADR 0086): the user never leaves the page, and the card then leads on to the verification.

const document_ = consentDocuments.identity_verification;

beforeAll(installDialogShim);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the setup dashboard consent', () => {
  it('opens the dialog in place, records the consent, toasts and leads on to the verification', async () => {
    const { calls } = stubFetch((call) => {
      if (call.url === '/api/consents')
        return json(201, { success: true, consentId: 'cns_1', recordedAt: '2026-11-27T10:00:00.000Z' });
      if (call.url === '/api/me') return json(200, { ...baseMe, consentRecorded: true });
      return json(404, {});
    });
    const user = userEvent.setup();
    const view = renderScreen({
      screen: SetupDashboard,
      path: '/dashboard',
      me: { kycStatus: 'not_started', consentRecorded: false },
    });

    await user.click(await screen.findByRole('button', { name: 'Provide Verification Consent' }));

    const dialog = await screen.findByRole('dialog', { name: document_.title });
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(view.router.state.location.pathname).toBe('/dashboard');
    for (const statement of document_.statements) {
      await user.click(within(dialog).getByRole('checkbox', { name: statement.text }));
    }
    await user.click(within(dialog).getByRole('button', { name: 'Agree and Continue' }));

    const toasts = await screen.findByRole('status', { name: 'Notifications' });
    await waitFor(() => expect(toasts.textContent).toMatch(/^Consent recorded successfully!/));
    const next = await screen.findByRole('link', { name: 'Continue to Verification' });
    expect(next.getAttribute('href')).toBe('/kyc/persona');
    await waitFor(() => expect(document.activeElement).toBe(next));
    expect(view.router.state.location.pathname).toBe('/dashboard');
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['POST /api/consents', 'GET /api/me']);
  });
});
