import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { watch } from '#tests/helpers/kyc-journey.ts';
import { home as homeDe } from '#web/content/de/pages/home.ts';
import { pricing as pricingDe } from '#web/content/de/pages/pricing.ts';
import { site as siteDe } from '#web/content/de/site.ts';
import { home } from '#web/content/pages/home.ts';
import { pricing } from '#web/content/pages/pricing.ts';
import { site } from '#web/content/site.ts';

// The reader's language on the production build (issue 28, ADR 0089): a German browser that opens
// the home page lands on the German one; the switcher in the nav and in the footer moves between
// a page's two versions and is remembered under `locale`; a remembered choice takes every page to
// its version in that language before it paints; a link in one language stays in it for a reader
// who chose nothing (and so for crawlers).

const stack = inject('stack');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).first().textContent();
const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const stored = (page: Page) => page.evaluate(() => localStorage.getItem('locale'));

async function reader(locale: string) {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  await watch(context, problems);
  return { context, problems, page: await context.newPage() };
}

describe('the reader’s language', () => {
  it('takes a German browser from / to /de, and the switcher back to English, which it remembers', async () => {
    const { context, problems, page } = await reader('de-DE');
    await page.goto(`${stack.web}/`);
    await page.waitForURL(`${stack.web}/de`);
    expect(await lang(page)).toBe('de');
    expect(await h1(page)).toBe(homeDe.hero.title);
    const nav = page.getByRole('navigation', { name: siteDe.nav.label });
    await nav.getByRole('button', { name: siteDe.nav.logIn }).waitFor();
    expect(await nav.getByRole('link', { name: siteDe.nav.requestAccess }).count()).toBe(1);
    // The page names its versions for search engines.
    expect(await page.locator('link[rel="alternate"][hreflang="en"]').getAttribute('href')).toMatch(/\/$/);
    expect(await page.locator('link[rel="alternate"][hreflang="de"]').getAttribute('href')).toMatch(/\/de$/);

    await nav.getByRole('link', { name: siteDe.language.switchToLabel }).click();
    // The link says the choice in its query; the head script stores it and takes it off the URL.
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.url()).toBe(`${stack.web}/`);
    expect(await lang(page)).toBe('en');
    expect(await h1(page)).toBe(home.hero.title);
    expect(await stored(page)).toBe('en');
    // Remembered: the German browser's next visit to / stays English, and a German link leads to
    // the English version of its page.
    await page.goto(`${stack.web}/`);
    expect(await h1(page)).toBe(home.hero.title);
    await page.goto(`${stack.web}/de/pricing`);
    await page.waitForURL(`${stack.web}/pricing`);
    expect(await h1(page)).toBe(pricing.title);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('switches from the footer too, and a German choice takes English links to German pages', async () => {
    const { context, problems, page } = await reader('en-GB');
    await page.goto(`${stack.web}/pricing`);
    expect(await h1(page)).toBe(pricing.title);
    const footer = page.getByRole('contentinfo');
    // Clicked before the page hydrated: the link's query carries the choice all the same.
    await footer.getByRole('link', { name: site.language.switchToLabel }).click();
    await page.waitForURL((url) => url.pathname === '/de/pricing');
    await expect.poll(() => page.url()).toBe(`${stack.web}/de/pricing`);
    expect(await h1(page)).toBe(pricingDe.title);
    expect(await stored(page)).toBe('de');
    await page.goto(`${stack.web}/`);
    await page.waitForURL(`${stack.web}/de`);
    expect(await h1(page)).toBe(homeDe.hero.title);
    // The German pages' links stay German.
    await page.getByRole('contentinfo').getByRole('link', { name: siteDe.footer.contact }).click();
    await page.waitForURL(`${stack.web}/de/contact`);
    expect(await lang(page)).toBe('de');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('leaves a page in its language for a reader who chose nothing, whatever the browser says', async () => {
    const { context, problems, page } = await reader('de-DE');
    await page.goto(`${stack.web}/pricing`);
    expect(await h1(page)).toBe(pricing.title);
    expect(page.url()).toBe(`${stack.web}/pricing`);
    const english = await reader('en-US');
    await english.page.goto(`${stack.web}/de/pricing`);
    expect(await h1(english.page)).toBe(pricingDe.title);
    expect(english.page.url()).toBe(`${stack.web}/de/pricing`);
    expect([...problems, ...english.problems]).toEqual([]);
    await english.context.close();
    await context.close();
  });

  it('answers an unknown German path with the German not-found page', async () => {
    const response = await fetch(`${stack.web}/de/no/such/page`, { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/^<!doctype html>\s*<html lang="de" data-prerendered="">/);
  });
});
