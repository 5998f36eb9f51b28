// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '#tests/web/render-route.tsx';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';

function stubApi() {
  const fetch = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify({ success: true }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The banner once React runs it (the prerendered one is `data-pending`, its buttons disabled). */
async function banner(): Promise<HTMLElement> {
  const region = await screen.findByRole('region', { name: 'Cookies on this site' });
  await waitFor(() => expect(region.hasAttribute('data-pending')).toBe(false));
  return region;
}
const stored = () => JSON.parse(localStorage.getItem('cookie-consent') ?? 'null');

function postedConsents(fetch: ReturnType<typeof stubApi>) {
  return fetch.mock.calls
    .filter(([url]) => url === '/api/cookie-consents')
    .map(([, init]) => JSON.parse(String(init?.body)));
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('cookie banner', () => {
  it('asks a first-time visitor, and accept all stores every category and logs the consent', async () => {
    const fetch = stubApi();
    const user = userEvent.setup();
    renderRoute('/pricing');

    await user.click(within(await banner()).getByRole('button', { name: 'Accept all' }));

    expect(stored()).toEqual({ essential: true, analytics: true, marketing: true, personalization: true });
    expect(new Date(localStorage.getItem('cookie-consent-date') ?? '').toISOString()).toBe(
      localStorage.getItem('cookie-consent-date'),
    );
    expect(screen.queryByRole('region', { name: 'Cookies on this site' })).toBeNull();
    await vi.waitFor(() => expect(postedConsents(fetch)).toHaveLength(1));
    const [body] = postedConsents(fetch);
    expect(body).toEqual({
      consentId: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      analytics: true,
      marketing: true,
      personalization: true,
      revision: cookiePolicyRevision,
    });
  });

  it('reject all keeps only the essential cookies', async () => {
    const fetch = stubApi();
    const user = userEvent.setup();
    renderRoute('/pricing');

    await user.click(within(await banner()).getByRole('button', { name: 'Reject all' }));

    expect(stored()).toEqual({ essential: true, analytics: false, marketing: false, personalization: false });
    await vi.waitFor(() =>
      expect(postedConsents(fetch)[0]).toMatchObject({
        analytics: false,
        marketing: false,
        personalization: false,
      }),
    );
  });

  it('customize stores exactly the categories switched on, with essential always on', async () => {
    const fetch = stubApi();
    const user = userEvent.setup();
    renderRoute('/pricing');

    const region = await banner();
    await user.click(within(region).getByRole('button', { name: 'Customize' }));
    const essential = within(region).getByRole<HTMLInputElement>('checkbox', {
      name: 'Essential (always on)',
    });
    expect(essential.checked).toBe(true);
    expect(essential.disabled).toBe(true);
    await user.click(within(region).getByRole('checkbox', { name: 'AI personalization' }));
    await user.click(within(region).getByRole('button', { name: 'Save choices' }));

    expect(stored()).toEqual({ essential: true, analytics: false, marketing: false, personalization: true });
    await vi.waitFor(() =>
      expect(postedConsents(fetch)[0]).toMatchObject({
        analytics: false,
        marketing: false,
        personalization: true,
      }),
    );
  });

  it('stays away once the visitor chose under the current revision', async () => {
    stubApi();
    const user = userEvent.setup();
    const first = renderRoute('/pricing');
    await user.click(within(await banner()).getByRole('button', { name: 'Reject all' }));
    first.unmount();

    renderRoute('/pricing');

    await screen.findByRole('contentinfo');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Cookies on this site' })).toBeNull());
  });

  it('asks again when the stored choice answered another policy revision', async () => {
    stubApi();
    localStorage.setItem(
      'cookie-consent',
      JSON.stringify({ essential: true, analytics: true, marketing: true, personalization: true }),
    );
    localStorage.setItem('cookie-consent-date', new Date().toISOString());
    localStorage.setItem('cookie-consent-revision', 'an-older-revision');

    renderRoute('/pricing');

    expect(await banner()).toBeDefined();
  });

  it('reopens from Cookie settings in the footer with the stored choice, and a new choice replaces it under the same consent id', async () => {
    const fetch = stubApi();
    const user = userEvent.setup();
    renderRoute('/pricing');
    await user.click(within(await banner()).getByRole('button', { name: 'Accept all' }));

    await user.click(
      within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Cookie settings' }),
    );

    const region = await banner();
    const marketing = within(region).getByRole<HTMLInputElement>('checkbox', { name: 'Marketing' });
    expect(marketing.checked).toBe(true);
    await user.click(marketing);
    await user.click(within(region).getByRole('button', { name: 'Save choices' }));

    expect(stored()).toEqual({ essential: true, analytics: true, marketing: false, personalization: true });
    await vi.waitFor(() => expect(postedConsents(fetch)).toHaveLength(2));
    const [first, second] = postedConsents(fetch);
    expect(second.consentId).toBe(first.consentId);
    expect(second.marketing).toBe(false);
  });

  it('gives focus back to Cookie settings in the footer when the reopened banner closes with a choice', async () => {
    stubApi();
    const user = userEvent.setup();
    renderRoute('/pricing');
    await user.click(within(await banner()).getByRole('button', { name: 'Accept all' }));
    const settings = within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Cookie settings' });

    await user.click(settings);
    const region = await banner();
    expect(document.activeElement).toBe(
      within(region).getByRole('heading', { name: 'Cookies on this site' }),
    );
    await user.click(within(region).getByRole('button', { name: 'Save choices' }));

    expect(screen.queryByRole('region', { name: 'Cookies on this site' })).toBeNull();
    expect(document.activeElement).toBe(settings);
  });

  it('gives focus back to Cookie settings when the reopened banner is closed with Escape', async () => {
    stubApi();
    const user = userEvent.setup();
    renderRoute('/pricing');
    await user.click(within(await banner()).getByRole('button', { name: 'Reject all' }));
    const settings = within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Cookie settings' });

    await user.click(settings);
    await banner();
    await user.keyboard('{Escape}');

    expect(screen.queryByRole('region', { name: 'Cookies on this site' })).toBeNull();
    expect(document.activeElement).toBe(settings);
  });

  it('gives focus back to the cookie policy page button that reopened the banner', async () => {
    stubApi();
    const user = userEvent.setup();
    renderRoute('/cookie-policy');
    await user.click(within(await banner()).getByRole('button', { name: 'Reject all' }));
    const opener = within(screen.getByRole('main')).getByRole('button', { name: /cookie settings/i });

    await user.click(opener);
    await user.click(within(await banner()).getByRole('button', { name: 'Save choices' }));

    expect(document.activeElement).toBe(opener);
  });

  it('moves focus to the main content when the first-visit banner closes with focus inside it', async () => {
    stubApi();
    const user = userEvent.setup();
    renderRoute('/pricing');

    await user.click(within(await banner()).getByRole('button', { name: 'Accept all' }));

    expect(screen.queryByRole('region', { name: 'Cookies on this site' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('leaves focus where it was when the first-visit banner closes without ever having it', async () => {
    const fetch = stubApi();
    renderRoute('/pricing');
    const region = await banner();
    const home = within(screen.getByRole('banner')).getByRole('link', { name: 'Helix Forecast home' });
    home.focus();

    // A click that does not move focus (as in Safari, which does not focus clicked buttons).
    within(region).getByRole('button', { name: 'Reject all' }).click();

    expect(document.activeElement).toBe(home);
    await vi.waitFor(() => expect(postedConsents(fetch)).toHaveLength(1));
  });

  it('keeps the choice when the consent log cannot be reached', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const user = userEvent.setup();
    renderRoute('/pricing');

    await user.click(within(await banner()).getByRole('button', { name: 'Reject all' }));

    expect(stored()).toEqual({ essential: true, analytics: false, marketing: false, personalization: false });
  });
});
