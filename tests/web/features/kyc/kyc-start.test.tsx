// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installDialogShim } from '#tests/web/dialog-shim.ts';
import { json } from '#tests/web/stub-api.ts';
import { Component as KycStart } from '#web/features/kyc/screens/kyc-start.tsx';
import { renderScreen, stubFetch } from './kyc-harness.tsx';

// /kyc/start: the three steps with where the user stands, and the two ways on.

beforeAll(installDialogShim);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function steps() {
  const list = screen.getByRole('list', { name: 'Verification steps' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => ({ text: item.textContent ?? '', current: item.getAttribute('aria-current') }));
}

describe('/kyc/start', () => {
  it('shows three steps with consent as the current one before consent is given', () => {
    stubFetch(() => json(404, {}));
    renderScreen({ screen: KycStart, path: '/kyc/start' });

    expect(screen.getByRole('heading', { level: 1, name: 'Identity Verification' })).toBeDefined();
    const [consent, verification, access] = steps();
    expect(consent).toEqual({ text: expect.stringMatching(/^1Consent \(Current step\)/), current: 'step' });
    expect(verification?.text).toMatch(/Identity verification \(Upcoming\)/);
    expect(access?.text).toMatch(/Full access \(Upcoming\)/);
    expect(screen.getByRole('button', { name: 'Provide Verification Consent' })).toBeDefined();
  });

  it('once consent is recorded, marks it completed and offers the way on to /kyc/persona', () => {
    stubFetch(() => json(404, {}));
    renderScreen({ screen: KycStart, path: '/kyc/start', me: { consentRecorded: true } });

    const [consent, verification] = steps();
    expect(consent?.text).toMatch(/Consent \(Completed\)/);
    expect(verification).toEqual({
      text: expect.stringMatching(/Identity verification \(Current step\)/),
      current: 'step',
    });
    expect(screen.queryByRole('button', { name: 'Provide Verification Consent' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Continue to Verification' }).getAttribute('href')).toBe(
      '/kyc/persona',
    );
  });

  it('"Skip for now" goes to /user-account', async () => {
    stubFetch(() => json(404, {}));
    const view = renderScreen({ screen: KycStart, path: '/kyc/start' });

    await userEvent.setup().click(screen.getByRole('link', { name: 'Skip for now' }));

    expect(view.router.state.location.pathname).toBe('/user-account');
  });
});
