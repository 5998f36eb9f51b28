import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installClock, launchBrowser, runClock } from '#tests/helpers/browser.ts';
import { sessionMessages } from '#web/content/session.ts';

// The session rules in real Chromium against the real identity provider, with the page's clock
// under the test's control (Playwright's clock): the inactivity warning and logout, the 60-minute
// maximum, a hidden tab, and a refused token refresh. A timed logout ends the provider's session
// and says why once the provider has sent the browser back to the site.

const stack = inject('stack');
const account = stack.accounts.find((a) => a.role === 'user' && a.organizationType === 'commercial');
if (!account) throw new Error('the stack seeds an approved commercial user');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Watched {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

async function signedIn(): Promise<Watched> {
  const context = await browser.newContext();
  await installClock(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${stack.web}/user-account`);
  await page.waitForURL(/\/u\/login\//);
  await page.getByLabel('Email address').fill(account?.email ?? '');
  await page.getByLabel('Password').fill(account?.password ?? '');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${stack.web}/user-account`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { context, page, problems };
}

const notices = (page: Page) => page.getByRole('status', { name: 'Notifications' });
const errors = (page: Page) => page.getByRole('alert', { name: 'Errors' });

/** Moves the mouse (activity) every minute while `minutes` pass on the page's clock. */
async function activeFor(page: Page, minutes: number): Promise<void> {
  for (let passed = 0; passed < minutes; passed++) {
    await page.mouse.move(100 + passed * 7, 200 + (passed % 2) * 9);
    await page.clock.runFor(60_000);
  }
}

describe('session rules', () => {
  it('warns after 4 idle minutes, logs out at 5 through the identity provider, and says why', async () => {
    const { context, page, problems } = await signedIn();

    await page.clock.runFor(4 * 60_000 + 1_000);
    await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.inactivityWarning);

    await page.clock.runFor(60_000);
    await page.waitForURL(`${stack.web}/`);
    await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.inactivity);
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('Log In');
    // The provider's session ended too: an app route asks for the password again.
    await page.goto(`${stack.web}/user-account`);
    await page.waitForURL(/\/u\/login\//);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps the inactivity warning on screen with "Stay signed in" until answered; pressing it keeps the session', async () => {
    const { context, page, problems } = await signedIn();
    const stay = notices(page).getByRole('button', { name: 'Stay signed in' });

    await runClock(page, 4 * 60_000 + 1_000);
    await stay.waitFor();
    expect(await notices(page).textContent()).toContain(sessionMessages.inactivityWarning);
    // Far beyond the 5 s other toasts last: it waits for an answer.
    await runClock(page, 30_000);
    expect(await stay.isVisible()).toBe(true);

    await stay.click();
    await expect.poll(() => stay.count()).toBe(0);
    expect(await notices(page).textContent()).not.toContain(sessionMessages.inactivityWarning);
    // The old 5:00 mark passes: still signed in.
    await runClock(page, 60_000);
    expect(page.url()).toBe(`${stack.web}/user-account`);
    // Idle from the press on: warned again 4 minutes after it, logged out after 5.
    await runClock(page, 3 * 60_000);
    await stay.waitFor();
    await runClock(page, 60_000);
    await page.waitForURL(`${stack.web}/`);
    await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.inactivity);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('removes the warning when the session ends in another tab', async () => {
    const { context, page } = await signedIn();
    const stay = notices(page).getByRole('button', { name: 'Stay signed in' });
    await runClock(page, 4 * 60_000 + 1_000);
    await stay.waitFor();

    // The user logs out in another tab of the site: this one forgets the session and goes home.
    const other = await context.newPage();
    await other.goto(`${stack.web}/`);
    await other.evaluate(() =>
      localStorage.setItem(
        'sessionEnded',
        JSON.stringify({ reason: 'signed-out', at: Date.now(), tab: 'other' }),
      ),
    );
    await page.waitForURL(`${stack.web}/`);
    await expect.poll(() => errors(page).textContent()).toContain(sessionMessages.signedOutElsewhere);
    expect(await notices(page).textContent()).not.toContain(sessionMessages.inactivityWarning);
    expect(await stay.count()).toBe(0);
    await context.close();
  });

  it('warns 5 minutes before the 60-minute maximum and logs out at 60, however active the user is', async () => {
    const { context, page, problems } = await signedIn();
    // The session began 55 minutes ago (its shared record says so); the user keeps working.
    await page.evaluate(() => localStorage.setItem('sessionStartTime', String(Date.now() - 55 * 60_000)));

    await activeFor(page, 1);
    await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.expiringSoon);
    expect(page.url()).toBe(`${stack.web}/user-account`);

    await activeFor(page, 4);
    await page.waitForURL(`${stack.web}/`);
    await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.maximumDuration);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says the 60 minutes were "reached" when the user comes back to a session already past them', async () => {
    const { context, page: app } = await signedIn();
    // The user closes the app's tab 58 minutes into the session and opens the app again at 61.
    await app.close();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${stack.web}/`);
    await page.evaluate(() => {
      const now = Date.now();
      localStorage.setItem('sessionStartTime', String(now - 61 * 60_000));
      localStorage.setItem('sessionLastActivity', String(now - 3 * 60_000));
      localStorage.setItem('sessionLastVisible', String(now - 3 * 60_000));
    });
    await page.goto(`${stack.web}/user-account`);
    await runClock(page, 5_000);

    await page.waitForURL(`${stack.web}/`);
    await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.maximumDurationReached);
    expect(await notices(page).textContent()).not.toContain(sessionMessages.maximumDuration);
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('Log In');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('logs out a tab that stayed hidden for 5 minutes', async () => {
    const { context, page, problems } = await signedIn();

    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.clock.runFor(5 * 60_000 + 1_000);

    await page.waitForURL(`${stack.web}/`);
    await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.hiddenTab);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('ends the session when the identity provider refuses the token refresh', async () => {
    const { context, page } = await signedIn();
    await page.route('**/oauth/token', (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'invalid_grant',
          error_description: 'Unknown or invalid refresh token.',
        }),
      }),
    );

    // The refresh is due 5 minutes after the login's; stop a moment after it, before its toast's
    // 5 seconds are up.
    await activeFor(page, 4);
    await page.mouse.move(300, 300);
    await page.clock.runFor(61_000);

    await page.waitForURL(`${stack.web}/`);
    await expect.poll(() => errors(page).textContent()).toContain(sessionMessages.expired);
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('Log In');
    await context.close();
  });
});
