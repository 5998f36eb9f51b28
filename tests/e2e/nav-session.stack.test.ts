import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  animationsSettled,
  installClock,
  launchBrowser,
  runClock,
  switchTheme,
} from '#tests/helpers/browser.ts';
import { journeyContext, signedInNewUser } from '#tests/helpers/kyc-journey.ts';
import { themeStorageKey } from '#web/lib/theme-key.ts';

// What the nav offers, in real Chromium on the production build with the local identity provider
// (ADR 0085): the public pages read the session's clock, so a session that ended in another tab or
// ran out its 60 minutes shows the logged-out choices there too; a signed-in user who is not yet
// approved gets their next step and Log Out, never Log In; Request Beta Access is for visitors. And
// a screen's heading takes focus after a navigation with a ring for keyboard users only.
// With NAV_SCREENSHOTS=<dir>, the header of each state is saved there in both themes at 390 and
// 1280 px, to look at.

const stack = inject('stack');
const approved = stack.accounts.find((a) => a.role === 'user' && a.organizationType === 'commercial');
if (!approved) throw new Error('the stack seeds an approved commercial user');
const screenshots = process.env.NAV_SCREENSHOTS;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** The nav's choices as a visitor reads them: its links' and buttons' names, in order. */
async function choices(page: Page): Promise<string[]> {
  const items: Locator = nav(page).locator('a, button');
  return (await items.allTextContents()).map((text) => text.trim());
}

/** The approved user, signed in through the provider's page, on their dashboard. */
async function signedInApproved(options: { clock?: boolean } = {}): Promise<{
  context: BrowserContext;
  page: Page;
  problems: string[];
}> {
  const { context, problems } = await journeyContext(browser, stack);
  if (options.clock) await installClock(context);
  const page = await context.newPage();
  await page.goto(`${stack.web}/dashboard`);
  await page.waitForURL(/\/u\/login\//);
  await page.getByLabel('Email address').fill(approved?.email ?? '');
  await page.getByLabel('Password').fill(approved?.password ?? '');
  await page.getByRole('button', { name: 'Continue' }).click();
  // `/dashboard` opens an approved user's segment dashboard (ADR 0085).
  await page.waitForURL(`${stack.web}/commercial-dashboard`);
  await page.getByRole('heading', { level: 1, name: 'Commercial Space Operations' }).waitFor();
  await nav(page).getByRole('link', { name: 'Dashboard' }).waitFor();
  return { context, page, problems };
}

async function shoot(page: Page, label: string): Promise<void> {
  if (!screenshots) return;
  for (const theme of ['light', 'dark'] as const) {
    await switchTheme(page, theme, themeStorageKey);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      const menu = page.getByRole('button', { name: 'Open menu' });
      // On a phone the nav is behind the menu button: open it.
      if (width < 768) await menu.click();
      await animationsSettled(page);
      await page.screenshot({
        path: `${screenshots}/${label}-${theme}-${width}.png`,
        clip: { x: 0, y: 0, width, height: width < 768 ? 420 : 80 },
      });
      if (width < 768) await page.keyboard.press('Escape');
    }
  }
  await switchTheme(page, 'light', themeStorageKey);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('the nav and the session', () => {
  it('shows a visitor Log In and Request Beta Access', async () => {
    const { context, problems } = await journeyContext(browser, stack);
    const page = await context.newPage();
    await page.goto(`${stack.web}/`);
    await nav(page).getByRole('button', { name: 'Log In' }).waitFor();
    expect(await choices(page)).toEqual([
      'Our Framework',
      'The Vision',
      'Account',
      'Log In',
      'Request Beta Access',
      'Deutsch',
    ]);
    await shoot(page, 'visitor');
    // The other signed-in states, as their hint and a live session's clock draw them (to look at).
    for (const hint of screenshots ? ['team', 'admin'] : []) {
      await page.evaluate((value) => {
        localStorage.setItem('auth-hint', value);
        localStorage.setItem('sessionStartTime', String(Date.now()));
        localStorage.setItem('sessionLastActivity', String(Date.now()));
      }, hint);
      await page.reload();
      await nav(page).getByRole('button', { name: 'Log Out' }).waitFor();
      await shoot(page, hint);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the home page the logged-out choices once the session ended in another tab', async () => {
    const { context, page: app, problems } = await signedInApproved();
    const home = await context.newPage();
    await home.goto(`${stack.web}/`);
    await nav(home).getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await choices(home)).toEqual([
      'Our Framework',
      'The Vision',
      'Account',
      'Dashboard',
      'Log Out',
      'Deutsch',
    ]);
    await shoot(home, 'approved');

    // The session ends in the app's tab (as a rule ends it there: the end marker, then the clock
    // goes); the nav's hint is left as it was, so only the session's clock can tell the home page.
    await app.evaluate(() => {
      localStorage.setItem(
        'sessionEnded',
        JSON.stringify({ reason: 'inactivity', at: Date.now(), tab: 'x' }),
      );
      localStorage.removeItem('sessionStartTime');
    });

    await nav(home).getByRole('button', { name: 'Log In' }).waitFor();
    expect(await home.evaluate(() => localStorage.getItem('auth-hint'))).toBe('signed-in');
    expect(await choices(home)).toEqual([
      'Our Framework',
      'The Vision',
      'Account',
      'Log In',
      'Request Beta Access',
      'Deutsch',
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('turns the open home page to the logged-out choices when the 60 minutes run out', async () => {
    const { context, page, problems } = await signedInApproved({ clock: true });
    // The user leaves the app for the home page (the app's rules stop with it) ...
    await page.getByRole('link', { name: 'Helix Forecast home' }).click();
    await page.waitForURL(`${stack.web}/`);
    await nav(page).getByRole('link', { name: 'Dashboard' }).waitFor();
    // ... 59.5 minutes after signing in, just active in another tab of the app.
    await page.evaluate(() => {
      const now = Date.now();
      localStorage.setItem('sessionStartTime', String(now - 59.5 * 60_000));
      localStorage.setItem('sessionLastActivity', String(now));
    });
    await runClock(page, 25_000);
    expect(await nav(page).getByRole('link', { name: 'Dashboard' }).count()).toBe(1);

    await runClock(page, 10_000);

    await nav(page).getByRole('button', { name: 'Log In' }).waitFor();
    expect(await nav(page).getByRole('button', { name: 'Log Out' }).count()).toBe(0);
    expect(await nav(page).getByRole('link', { name: 'Request Beta Access' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('offers a signed-in user who is not yet approved their next step and Log Out, never Log In', async () => {
    const journey = await signedInNewUser(browser, stack, 'commercial');
    const { page } = journey;
    await nav(page).getByRole('button', { name: 'Log Out' }).waitFor();
    expect(await choices(page)).toEqual([
      'Our Framework',
      'The Vision',
      'Account',
      'Continue Setup',
      'Log Out',
      'Deutsch',
    ]);
    await shoot(page, 'onboarding');

    // On a public page too, and the next step leads back to /kyc/start.
    await page.getByRole('link', { name: 'Helix Forecast home' }).click();
    await page.waitForURL(`${stack.web}/`);
    expect(await choices(page)).toEqual([
      'Our Framework',
      'The Vision',
      'Account',
      'Continue Setup',
      'Log Out',
      'Deutsch',
    ]);
    await nav(page).getByRole('link', { name: 'Continue Setup' }).click();
    await page.waitForURL(`${stack.web}/kyc/start`);
    await page.getByRole('heading', { level: 1, name: 'Identity Verification' }).waitFor();

    // The account page's nav says the same as its page: Log Out.
    await page.goto(`${stack.web}/user-account`);
    await page.getByRole('heading', { level: 1, name: 'Your Account' }).waitFor();
    expect(await nav(page).getByRole('button', { name: 'Log In' }).count()).toBe(0);
    await nav(page).getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(`${stack.web}/`);
    await nav(page).getByRole('button', { name: 'Log In' }).waitFor();
    expect(journey.problems).toEqual([]);
    await journey.context.close();
  });
});

describe('focus after a navigation', () => {
  const focusedHeading = (page: Page) =>
    page.evaluate(() => {
      const active = document.activeElement;
      return {
        heading: active?.tagName === 'H1' ? active.textContent : null,
        ring: active?.matches(':focus-visible') ?? false,
      };
    });

  it('moves focus to the heading, with a ring only when the user navigates by keyboard', async () => {
    const { context, page, problems } = await signedInApproved();

    // Back from the identity provider, nothing touched yet: focus, no ring.
    expect(await focusedHeading(page)).toEqual({ heading: 'Commercial Space Operations', ring: false });

    // A mouse click on a link: focus, no ring.
    await page.getByRole('main').getByRole('link', { name: 'Your Account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your Account' }).waitFor();
    await expect.poll(() => focusedHeading(page)).toEqual({ heading: 'Your Account', ring: false });

    // The keyboard: Tab to a link, Enter. Focus, and the ring.
    await page.getByRole('link', { name: 'Helix Forecast home' }).focus();
    for (let step = 0; step < 30; step++) {
      await page.keyboard.press('Tab');
      const name = await page.evaluate(() => document.activeElement?.textContent?.trim());
      if (name === 'Dashboard') break;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Dashboard');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.web}/commercial-dashboard`);
    await expect
      .poll(() => focusedHeading(page))
      .toEqual({ heading: 'Commercial Space Operations', ring: true });
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline).toBe('solid');

    // And the mouse again: no ring.
    await page.getByRole('main').getByRole('link', { name: 'Your Account' }).click();
    await expect.poll(() => focusedHeading(page)).toEqual({ heading: 'Your Account', ring: false });
    expect(problems).toEqual([]);
    await context.close();
  });
});
