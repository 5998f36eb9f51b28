// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { installDialogShim } from '#tests/web/dialog-shim.ts';
import { json } from '#tests/web/stub-api.ts';
import { Component as KycPersona } from '#web/features/kyc/screens/kyc-persona.tsx';
import { renderScreen } from './kyc-harness.tsx';
import { quietConsoleError, stubPersonaBackend } from './persona-harness.ts';

// The SDK's chunk does not load (a deploy replaced it, the network dropped): the user is told so
// and taken to the dashboard instead of waiting in front of an empty screen.

vi.mock('persona', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

beforeAll(installDialogShim);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

it('says "Could not load verification module." and goes to /dashboard when the persona SDK fails to load', async () => {
  const consoleError = quietConsoleError();
  const { calls } = stubPersonaBackend(() => json(200, { inquiryId: 'inq_123', sessionToken: 'sess_abc' }));
  const view = renderScreen({ screen: KycPersona, path: '/kyc/persona', me: { consentRecorded: true } });

  await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'));
  expect(screen.getByRole('alert', { name: 'Errors' }).textContent).toContain(
    'Could not load verification module.',
  );
  expect(calls.some((call) => call.url === '/api/me/kyc/inquiry')).toBe(true);
  expect(consoleError).toHaveBeenCalled();
});
