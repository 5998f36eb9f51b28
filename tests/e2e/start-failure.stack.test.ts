import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { errors } from '#web/content/errors.ts';
import { site } from '#web/content/site.ts';

// A page whose scripts fail to load or start must not pretend to be loading forever: the
// prerendered HTML (with the inline scripts, which need no file) hides the "Loading..." slot and
// asks the visitor to reload; the 404 page keeps its content, and the app shell of an app route
// shows the message instead of saying it is loading.

const stack = inject('stack');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Opens `path` with every request for a script matching `blocked` aborted. */
async function openFailing(
  path: string,
  blocked: string,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('console', () => {}); // the loader logs the failure; expected here
  await page.route(blocked, (route) => route.abort());
  await page.goto(`${stack.web}${path}`);
  await page.locator('html[data-start-failed]').waitFor({ state: 'attached', timeout: 10_000 });
  return page;
}

const message = (page: Page) => page.getByText(errors.startFailed);
const loading = (page: Page) => page.getByText(site.nav.loading);

describe('a page that cannot start', () => {
  it('says so on a prerendered page when the entry cannot be fetched, and keeps its content', async () => {
    const page = await openFailing('/pricing', '**/assets/index-*.js');
    expect(await message(page).isVisible()).toBe(true);
    expect(await loading(page).isVisible()).toBe(false);
    expect(await page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('shows the nav links on a phone, since the menu button cannot open the menu', async () => {
    const page = await openFailing('/pricing', '**/assets/index-*.js', { width: 390, height: 844 });
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Our Framework' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('keeps the prerendered 404 page readable at an unknown path, and says so', async () => {
    const page = await openFailing('/no/such/page', '**/assets/index-*.js');
    expect(await message(page).isVisible()).toBe(true);
    expect(await loading(page).isVisible()).toBe(false);
    expect(await page.getByRole('heading', { level: 1, name: 'Page not found' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('shows the message in the app shell of an app route instead of a lasting Loading', async () => {
    const page = await openFailing('/dashboard', '**/assets/index-*.js');
    expect(await message(page).isVisible()).toBe(true);
    // Neither the nav's slot nor the shell's pending main says Loading...
    expect(await loading(page).filter({ visible: true }).count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('says so when the entry loads but the app fails to boot', async () => {
    const page = await openFailing('/pricing', '**/assets/boot-*.js');
    expect(await message(page).isVisible()).toBe(true);
    expect(await loading(page).isVisible()).toBe(false);
    await page.context().close();
  });

  it('keeps the message hidden on a page that starts', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.web}/pricing`);
    await page.locator('.nav-auth:not(.nav-auth--pending)').first().waitFor({ state: 'attached' });
    expect(await page.evaluate(() => document.documentElement.dataset.startFailed)).toBeUndefined();
    expect(await message(page).isVisible()).toBe(false);
    await context.close();
  });
});
