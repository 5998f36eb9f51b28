// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import { deletionConfirmationPath } from '#lambdas/domain/emails/data-deletion.ts';
import { renderPage } from '#tests/web/render-route.tsx';
import { json, problemJson, stubApi } from '#tests/web/stub-api.ts';
import { paths } from '#web/config/paths.ts';

// /data-deletion/confirm: the emailed link's page. Opening it changes nothing; the button POSTs
// the token from the fragment and shows the result.

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const token = `0b0e3c55-7a7e-4c8e-9d55-1f0f8f3c2a11.${'x'.repeat(43)}`;
const link = `${paths.dataDeletionConfirm.path}#token=${encodeURIComponent(token)}`;

describe('the data deletion confirmation page', () => {
  it('is where the emailed link leads, and is not listed for search engines', () => {
    expect(paths.dataDeletionConfirm.path).toBe(deletionConfirmationPath);
    expect(paths.dataDeletionConfirm.indexed).toBe(false);
  });

  it('sends nothing when opened, and confirms with the token on the button', async () => {
    const api$ = stubApi(async () => json(200, { requestId: 'req-7', dueBy: '2026-12-25' }));
    const { main, user } = await renderPage(link);
    expect(main.getByRole('heading', { level: 1, name: 'Confirm your data deletion request' })).toBeDefined();
    expect(
      main.getByText(
        'You asked us to delete the personal data we hold about your email address. Nothing is deleted until you confirm.',
      ),
    ).toBeDefined();
    expect(api$.fetch).not.toHaveBeenCalled();

    // By keyboard: Enter on the focused button.
    main.getByRole('button', { name: 'Confirm Deletion Request' }).focus();
    await user.keyboard('{Enter}');

    const result = await main.findByRole('heading', { name: 'Deletion request confirmed' });
    expect(document.activeElement).toBe(result);
    expect(result.closest('[role="status"]')).not.toBeNull();
    expect(main.getByText('req-7')).toBeDefined();
    const due = main.getByText('December 25, 2026');
    expect(due.getAttribute('datetime')).toBe('2026-12-25');
    expect(api$.posted('/api/data-deletion-requests/confirm')).toEqual([{ token }]);
    expect(main.queryByRole('button', { name: 'Confirm Deletion Request' })).toBeNull();
  });

  it('says when the link has expired or was used, and points to the form', async () => {
    stubApi(async () =>
      problemJson(410, { type: problemTypes.deletionConfirmationInvalid, title: 'Gone', status: 410 }),
    );
    const { main, user } = await renderPage(link);
    await user.click(main.getByRole('button', { name: 'Confirm Deletion Request' }));
    const alert = await main.findByRole('alert');
    expect(alert.textContent).toContain(
      'This link does not work any more: it has expired or has already been used. To ask again, use the form on the Data Deletion page.',
    );
    expect(document.activeElement).toBe(alert);
    expect(main.getByRole('link', { name: 'Go to Data Deletion' }).getAttribute('href')).toBe(
      '/data-deletion',
    );
    expect(main.queryByRole('button', { name: 'Confirm Deletion Request' })).toBeNull();
  });

  it('keeps the button for another try when the network fails', async () => {
    let failing = true;
    const api$ = stubApi(async () =>
      failing
        ? Promise.reject(new TypeError('Failed to fetch'))
        : json(200, { requestId: 'r', dueBy: '2026-12-25' }),
    );
    const { main, user } = await renderPage(link);
    await user.click(main.getByRole('button', { name: 'Confirm Deletion Request' }));
    expect((await main.findByRole('alert')).textContent).toBe(
      'Your confirmation could not be sent. Please try again.',
    );
    failing = false;
    await user.click(main.getByRole('button', { name: 'Confirm Deletion Request' }));
    await main.findByRole('heading', { name: 'Deletion request confirmed' });
    expect(api$.posted('/api/data-deletion-requests/confirm')).toHaveLength(2);
  });

  it('says the link is incomplete when it has no token, and offers no button', async () => {
    const api$ = stubApi(async () => json(200, {}));
    const { main } = await renderPage(paths.dataDeletionConfirm.path);
    expect((await main.findByRole('alert')).textContent).toBe(
      'This link is incomplete. Open the link in the email again, or copy all of it into the address bar.',
    );
    expect(main.queryByRole('button')).toBeNull();
    expect(api$.fetch).not.toHaveBeenCalled();
    expect(screen.getByRole('main')).toBeDefined();
  });
});
