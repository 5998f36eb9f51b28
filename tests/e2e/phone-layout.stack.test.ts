import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consentDocuments } from '#contracts/consent-documents.ts';
import { launchBrowser, switchTheme } from '#tests/helpers/browser.ts';
import { journeyContext, signedInNewUser, watch } from '#tests/helpers/kyc-journey.ts';
import { paths } from '#web/config/paths.ts';
import { pendingNoticeKey } from '#web/lib/journey-storage.ts';
import { themeStorageKey } from '#web/lib/theme-key.ts';

// What a new visitor meets on a phone (issue 28, item 10; ADR 0087), in real Chromium against the
// local stack: the consent dialog fits the screen with both its buttons reachable, the cookie
// banner is small and never covers the field that has focus, and a toast leaves the header (the
// menu button and the nav) free. Screenshots of each state, in both themes, go to /tmp/phone-layout-*.

const stack = inject('stack');
const phone = { width: 390, height: 844 };
const smallPhone = { width: 375, height: 812 };
const desktop = { width: 1280, height: 900 };
/** The banner's most on a phone, in CSS pixels: about a seventh of an 844 px screen (it was 220). */
const bannerMaxHeight = 128;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator} has no box`);
  return found;
}

/** Within the viewport, and the topmost element at its centre (nothing lies over it). */
async function reachable(page: Page, locator: Locator): Promise<void> {
  const size = page.viewportSize();
  if (!size) throw new Error('no viewport');
  const area = await box(locator);
  expect(area.y).toBeGreaterThanOrEqual(0);
  expect(area.x).toBeGreaterThanOrEqual(0);
  expect(area.y + area.height).toBeLessThanOrEqual(size.height);
  expect(area.x + area.width).toBeLessThanOrEqual(size.width);
  expect(
    await locator.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      const top = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
      return top !== null && element.contains(top);
    }),
  ).toBe(true);
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await switchTheme(page, theme, themeStorageKey);
    await page.screenshot({ path: `/tmp/phone-layout-${name}-${theme}-${page.viewportSize()?.width}.png` });
  }
  await switchTheme(page, 'light', themeStorageKey);
}

describe('on a phone', () => {
  it('the consent dialog fits the screen: its body scrolls, Agree and Cancel stay in view', async () => {
    const journey = await signedInNewUser(browser, stack, 'commercial');
    const { page } = journey;
    try {
      for (const size of [phone, smallPhone, desktop]) {
        await page.setViewportSize(size);
        await page.getByRole('button', { name: 'Provide Verification Consent' }).click();
        const dialog = page.getByRole('dialog', { name: consentDocuments.identity_verification.title });
        await dialog.waitFor();
        const dialogBox = await box(dialog);
        expect(dialogBox.y).toBeGreaterThanOrEqual(0);
        expect(dialogBox.y + dialogBox.height).toBeLessThanOrEqual(size.height);
        const agree = dialog.getByRole('button', { name: 'Agree and Continue' });
        const cancel = dialog.getByRole('button', { name: 'Cancel' });
        await reachable(page, agree);
        await reachable(page, cancel);
        await shoot(page, 'consent-dialog');
        // The statements scroll inside the dialog; the last one can be ticked, the buttons stay put.
        const statements = consentDocuments.identity_verification.statements;
        const last = dialog.getByRole('checkbox', { name: statements[statements.length - 1]?.text });
        await last.check();
        await reachable(page, last);
        await reachable(page, cancel);
        await cancel.click();
        await dialog.waitFor({ state: 'hidden' });
      }
      expect(journey.problems).toEqual([]);
    } finally {
      await journey.context.close();
    }
  });

  it(`the cookie banner is at most ${bannerMaxHeight} px high and never covers the focused element`, async () => {
    const context = await browser.newContext({ viewport: phone });
    const problems: string[] = [];
    await watch(context, problems);
    const page = await context.newPage();
    try {
      await page.goto(`${stack.web}${paths.register.getHref()}`);
      const banner = page.getByRole('region', { name: 'Cookies on this site' });
      // Its buttons wait for React (the prerendered banner shows first).
      await expect
        .poll(() => banner.getByRole('button', { name: 'Accept all' }).isEnabled(), { timeout: 15_000 })
        .toBe(true);
      const bannerBox = await box(banner.locator('.cookie-banner__inner'));
      console.info(`cookie banner on a ${phone.width} x ${phone.height} phone: ${bannerBox.height} px high`);
      expect(bannerBox.height).toBeLessThanOrEqual(bannerMaxHeight);
      await shoot(page, 'cookie-banner');

      // Every Tab stop of the page, from the top: the focused element is wholly above the banner.
      const seen: string[] = [];
      for (let stop = 0; stop < 80; stop++) {
        await page.keyboard.press('Tab');
        const focus = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          const inner = document.querySelector('.cookie-banner__inner');
          if (!element || element === document.body || !inner) return null;
          const rect = element.getBoundingClientRect();
          return {
            name: `${element.tagName.toLowerCase()} ${(element.textContent || element.getAttribute('name') || element.id).trim().slice(0, 30)}`,
            inBanner: element.closest('.cookie-banner') !== null,
            bottom: rect.bottom,
            top: rect.top,
            bannerTop: inner.getBoundingClientRect().top,
          };
        });
        if (!focus) continue;
        if (focus.inBanner) {
          if (seen.length > 5) break; // round the page once; the banner's own buttons come last
          continue;
        }
        seen.push(focus.name);
        expect(focus.bottom, `${focus.name} is under the banner`).toBeLessThanOrEqual(focus.bannerTop);
      }
      expect(seen.length).toBeGreaterThan(10);
      // Its text never needs scrolling inside it at the usual sizes: the reserved space holds it all.
      for (const size of [{ width: 320, height: 640 }, smallPhone, phone, desktop]) {
        await page.setViewportSize(size);
        const { content, shown } = await banner
          .locator('.cookie-banner__inner')
          .evaluate((inner) => ({ content: inner.scrollHeight, shown: inner.clientHeight }));
        expect(content, `the banner's text scrolls at ${size.width} px`).toBeLessThanOrEqual(shown + 1);
      }
      await shoot(page, 'cookie-banner');
      // A choice hides the banner and gives its space back.
      await page.setViewportSize(phone);
      await banner.getByRole('button', { name: 'Reject all' }).click();
      await banner.waitFor({ state: 'detached' });
      // Reopened from the footer it shows its toggles: taller, still within its space, Save in view.
      await page.getByRole('button', { name: 'Cookie settings' }).click();
      await banner.getByRole('checkbox', { name: 'Analytics' }).check();
      await reachable(page, banner.getByRole('button', { name: 'Save choices' }));
      await shoot(page, 'cookie-settings');
      await banner.getByRole('button', { name: 'Save choices' }).click();
      await banner.waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a toast leaves the header's menu button, the open menu and the nav free", async () => {
    const { context, problems } = await journeyContext(browser, stack);
    const page = await context.newPage();
    try {
      for (const size of [phone, desktop]) {
        await page.setViewportSize(size);
        await page.goto(`${stack.web}${paths.contact.getHref()}`);
        await page.evaluate(
          ([key]) => sessionStorage.setItem(key, 'You were logged out after a while without activity.'),
          [pendingNoticeKey] as const,
        );
        await page.goto(`${stack.web}/`);
        const toast = page.locator('.toast', { hasText: 'You were logged out' });
        await toast.waitFor();
        const toastBox = await box(toast);
        expect(overlaps(toastBox, await box(page.locator('.site-header')))).toBe(false);
        if (size === phone) {
          const menu = page.getByRole('button', { name: 'Open menu' });
          expect(overlaps(toastBox, await box(menu))).toBe(false);
          await menu.click();
          const nav = page.locator('.site-nav');
          await nav.getByRole('link').first().waitFor();
          expect(overlaps(toastBox, await box(nav))).toBe(false);
          await reachable(page, toast.getByRole('button', { name: 'Dismiss notification' }));
        }
        await shoot(page, 'toast');
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
