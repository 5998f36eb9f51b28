// @vitest-environment jsdom
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '#tests/web/render-route.tsx';
import { routes } from '#web/app/routes.tsx';

// The one module that imports the identity SDK, replaced here: these tests are about the nav.
const auth0 = vi.hoisted(() => ({
  startLogin: vi.fn(async () => undefined),
  startLogout: vi.fn(async () => undefined),
}));
vi.mock('#web/lib/auth/auth0.tsx', () => auth0);

const nav = () => screen.getByRole('navigation', { name: 'Main' });
const navReady = () => screen.findByRole('navigation', { name: 'Main' });

const minute = 60_000;

/**
 * What the app shell leaves in this browser after `GET /api/me`: the nav's hint, and the session's
 * clock (signed in `startedAgo` ms ago, last active `activeAgo` ms ago), which public pages read.
 */
function signedIn(hint: string, { startedAgo = minute, activeAgo = 0 } = {}) {
  const now = Date.now();
  localStorage.setItem('auth-hint', hint);
  localStorage.setItem('sessionStartTime', String(now - startedAgo));
  localStorage.setItem('sessionLastActivity', String(now - activeAgo));
}

beforeEach(() => {
  auth0.startLogin.mockClear();
  auth0.startLogout.mockClear();
  localStorage.clear();
  // Nobody is asked about cookies here: the banner has its own tests.
  localStorage.setItem(
    'cookie-consent',
    JSON.stringify({ essential: true, analytics: false, marketing: false, personalization: false }),
  );
  localStorage.setItem('cookie-consent-date', new Date().toISOString());
  localStorage.setItem('cookie-consent-revision', '2025-06-08');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('nav', () => {
  it('prerenders a Loading slot where Log In or Dashboard will be, and Request Beta Access', async () => {
    const handler = createStaticHandler(routes);
    const context = await handler.query(new Request('https://platform.example/pricing'));
    if (context instanceof Response) throw new Error('unexpected redirect');
    const html = renderToString(
      <StaticRouterProvider
        router={createStaticRouter(handler.dataRoutes, context)}
        context={context}
        hydrate={false}
      />,
    );

    expect(html).toContain('Loading...');
    expect(html).not.toContain('Log In');
    expect(html).toMatch(/<a[^>]*href="\/#waitlist"[^>]*>Request Beta Access<\/a>/);
  });

  it('offers Log In to a visitor without a sign-in hint', async () => {
    renderRoute('/pricing');
    expect(await within(await navReady()).findByRole('button', { name: 'Log In' })).toBeDefined();
    expect(within(nav()).queryByRole('link', { name: 'Dashboard' })).toBeNull();
  });

  it('offers the Dashboard when the local hint says the visitor signed in', async () => {
    signedIn('signed-in');
    renderRoute('/pricing');
    const dashboard = await within(await navReady()).findByRole('link', { name: 'Dashboard' });
    expect(dashboard.getAttribute('href')).toBe('/dashboard');
    expect(within(nav()).queryByRole('button', { name: 'Log In' })).toBeNull();
  });

  it("offers an organization's approved admin the Team page beside the Dashboard", async () => {
    signedIn('team');
    renderRoute('/pricing');
    const team = await within(await navReady()).findByRole('link', { name: 'Team' });
    expect(team.getAttribute('href')).toBe('/organization');
    expect(within(nav()).getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(within(nav()).getByRole('button', { name: 'Log Out' })).toBeDefined();
  });

  it('offers no Team link to a signed-in user who is not their organization admin', async () => {
    signedIn('signed-in');
    renderRoute('/pricing');
    await within(await navReady()).findByRole('link', { name: 'Dashboard' });
    expect(within(nav()).queryByRole('link', { name: 'Team' })).toBeNull();
  });

  it('offers an administrator Verification Review instead of the Dashboard, with Log Out', async () => {
    signedIn('admin');
    renderRoute('/pricing');
    const review = await within(await navReady()).findByRole('link', { name: 'Verification Review' });
    expect(review.getAttribute('href')).toBe('/admin/verification');
    expect(within(nav()).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(within(nav()).getByRole('button', { name: 'Log Out' })).toBeDefined();
  });

  it('offers Log Out beside the Dashboard to a signed-in, approved visitor, and logging out forgets the journey', async () => {
    signedIn('signed-in');
    localStorage.setItem('registration_data', '{"step":2}');
    const user = userEvent.setup();
    renderRoute('/pricing');

    await user.click(await within(await navReady()).findByRole('button', { name: 'Log Out' }));

    await vi.waitFor(() => expect(auth0.startLogout).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem('registration_data')).toBeNull();
    expect(localStorage.getItem('auth-hint')).toBe('signed-out');
  });

  it('offers a signed-in user who is not yet approved their next step and Log Out, not Log In nor the Dashboard', async () => {
    signedIn('onboarding');
    renderRoute('/pricing');
    const next = await within(await navReady()).findByRole('link', { name: 'Continue Setup' });
    // `/auth/login` sends a signed-in user on to their next step.
    expect(next.getAttribute('href')).toBe('/auth/login');
    expect(within(nav()).getByRole('button', { name: 'Log Out' })).toBeDefined();
    expect(within(nav()).queryByRole('button', { name: 'Log In' })).toBeNull();
    expect(within(nav()).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(within(nav()).queryByRole('link', { name: 'Request Beta Access' })).toBeNull();
  });

  it.each(['signed-in', 'team', 'admin', 'onboarding'])(
    'shows Request Beta Access to visitors only, not to a signed-in user (%s)',
    async (hint) => {
      signedIn(hint);
      renderRoute('/');
      await within(await navReady()).findByRole('button', { name: 'Log Out' });
      expect(within(nav()).queryByRole('link', { name: 'Request Beta Access' })).toBeNull();
    },
  );

  it('shows a visitor Request Beta Access beside Log In', async () => {
    renderRoute('/');
    await within(await navReady()).findByRole('button', { name: 'Log In' });
    expect(within(nav()).getByRole('link', { name: 'Request Beta Access' })).toBeDefined();
  });

  it.each([
    ['60 minutes after sign-in', { startedAgo: 60 * minute, activeAgo: 0 }],
    ['5 minutes after the last activity', { startedAgo: 20 * minute, activeAgo: 5 * minute }],
  ])('reads the session clock: a hint left behind %s shows the logged-out choices', async (_, times) => {
    signedIn('signed-in', times);
    renderRoute('/');
    expect(await within(await navReady()).findByRole('button', { name: 'Log In' })).toBeDefined();
    expect(within(nav()).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(within(nav()).queryByRole('button', { name: 'Log Out' })).toBeNull();
    expect(within(nav()).getByRole('link', { name: 'Request Beta Access' })).toBeDefined();
  });

  it('shows the logged-out choices when the session ended in another tab (its clock removed)', async () => {
    signedIn('signed-in');
    renderRoute('/');
    await within(await navReady()).findByRole('link', { name: 'Dashboard' });

    // Another tab's Log Out or session rule: the end marker, then the clocks go (a `storage` event here).
    localStorage.setItem(
      'sessionEnded',
      JSON.stringify({ reason: 'signed-out', at: Date.now(), tab: 'other' }),
    );
    localStorage.removeItem('sessionStartTime');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'sessionStartTime' }));
    });

    expect(await within(nav()).findByRole('button', { name: 'Log In' })).toBeDefined();
    expect(within(nav()).queryByRole('link', { name: 'Dashboard' })).toBeNull();
  });

  it('turns to the logged-out choices when the 60 minutes run out while the page is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      signedIn('signed-in', { startedAgo: 60 * minute - 30_000 });
      renderRoute('/');
      await within(await navReady()).findByRole('link', { name: 'Dashboard' });
      // Active in the app meanwhile (another tab), so only the 60 minutes can end it.
      localStorage.setItem('sessionLastActivity', String(Date.now() + 30_000));

      await act(() => vi.advanceTimersByTimeAsync(30_001));

      expect(within(nav()).getByRole('button', { name: 'Log In' })).toBeDefined();
      expect(within(nav()).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets an unfinished registration and starts the login redirect from Log In', async () => {
    localStorage.setItem('registration_data', '{"step":2}');
    const user = userEvent.setup();
    renderRoute('/pricing');

    await user.click(await within(await navReady()).findByRole('button', { name: 'Log In' }));

    await vi.waitFor(() => expect(auth0.startLogin).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem('registration_data')).toBeNull();
  });

  it('says "Login failed" when the login cannot start', async () => {
    auth0.startLogin.mockRejectedValueOnce(new Error('config did not load'));
    const user = userEvent.setup();
    renderRoute('/pricing');

    await user.click(await within(await navReady()).findByRole('button', { name: 'Log In' }));

    const alert = await screen.findByRole('alert', { name: 'Errors' });
    await vi.waitFor(() => expect(alert.textContent).toContain('Authentication Error'));
    expect(alert.textContent).toContain('Login failed');
  });

  it('goes home and scrolls to the section when Our Framework is chosen on another page', async () => {
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id);
    };
    const user = userEvent.setup();
    const { router } = renderRoute('/pricing');

    await user.click(await within(await navReady()).findByRole('link', { name: 'Our Framework' }));

    await vi.waitFor(() => expect(scrolled).toEqual(['framework']));
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.hash).toBe('#framework');
    expect(document.activeElement?.id).toBe('framework');
  });

  it('scrolls to the waitlist from Request Beta Access on the home page', async () => {
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id);
    };
    const user = userEvent.setup();
    renderRoute('/');

    await user.click(await within(await navReady()).findByRole('link', { name: 'Request Beta Access' }));

    await vi.waitFor(() => expect(scrolled).toEqual(['waitlist']));
  });

  it('opens the mobile menu into its first link, and Escape closes it and returns focus to the button', async () => {
    const user = userEvent.setup();
    renderRoute('/pricing');
    const button = await screen.findByRole('button', { name: 'Open menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-controls')).toBe(nav().id);

    await user.click(button);

    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-label')).toBe('Close menu');
    expect(nav().className).toContain('site-nav--open');
    expect(document.activeElement).toBe(within(nav()).getByRole('link', { name: 'Our Framework' }));

    await user.keyboard('{Escape}');

    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(nav().className).not.toContain('site-nav--open');
    expect(document.activeElement).toBe(button);
  });

  it('closes the mobile menu when Tab leaves it past its last link', async () => {
    const user = userEvent.setup();
    renderRoute('/pricing');
    const button = await screen.findByRole('button', { name: 'Open menu' });
    await within(nav()).findByRole('button', { name: 'Log In' });
    await user.click(button);
    const links = within(nav()).getAllByRole('link');
    const last = links[links.length - 1];

    for (let step = 0; step < 10 && document.activeElement !== last; step++) await user.tab();
    expect(document.activeElement).toBe(last);
    expect(nav().className).toContain('site-nav--open');
    await user.tab();

    expect(nav().contains(document.activeElement)).toBe(false);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(nav().className).not.toContain('site-nav--open');
  });

  it('keeps the mobile menu open on its button, and closes it when Shift+Tab goes before the button', async () => {
    const user = userEvent.setup();
    renderRoute('/pricing');
    const button = await screen.findByRole('button', { name: 'Open menu' });
    await user.click(button);

    await user.tab({ shift: true });
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');

    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Helix Forecast home' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(nav().className).not.toContain('site-nav--open');
  });

  it('changes the header once the page is scrolled past 50px, and back', async () => {
    renderRoute('/pricing');
    const header = await screen.findByRole('banner');
    expect(header.className).not.toContain('site-header--scrolled');

    Object.defineProperty(window, 'scrollY', { value: 51, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(header.className).toContain('site-header--scrolled'));

    Object.defineProperty(window, 'scrollY', { value: 50, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(header.className).not.toContain('site-header--scrolled'));
  });
});

describe('footer', () => {
  it('links every page the footer promises and shows the company registration and banking details', async () => {
    renderRoute('/pricing');
    const footer = await screen.findByRole('contentinfo');
    const links = Object.fromEntries(
      within(footer)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    );
    expect(links).toMatchObject({
      Documentation: '/documentation',
      Tutorials: '/tutorials',
      Careers: '/careers',
      Investors: '/investors',
      Contact: '/contact',
      Terms: '/terms-and-conditions',
      Privacy: '/privacy-policy',
      GDPR: '/gdpr-compliance',
    });
    expect(within(footer).getByRole('button', { name: 'Cookie settings' })).toBeDefined();
    expect(within(footer).getByRole('heading', { name: 'Company registration' })).toBeDefined();
    expect(within(footer).getByRole('heading', { name: 'Banking details' })).toBeDefined();
    expect(footer.textContent).toContain('IBAN');
  });
});
