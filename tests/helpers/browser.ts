import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '#scripts/lib/chromium.ts';
import { themeStorageKey } from '#web/lib/theme-key.ts';

// Shared with the bench (scripts/lib/chromium.ts), re-exported for the tests.
export { chromiumArgs, chromiumPath };

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

/**
 * Waits for the CSS transitions under way (the header fades its background over 0.2 s when the
 * theme changes or it becomes "scrolled" on a resize): axe run mid-fade sees light text on a
 * half-dark header and reports a contrast failure that no settled screen has.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // Reading a computed style applies pending style changes, so their transitions exist now.
    getComputedStyle(document.documentElement).getPropertyValue('color');
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** Switches the theme as the toggle does (`data-theme`, and the stored choice when a key is given), settled. */
export async function switchTheme(page: Page, theme: 'light' | 'dark', storageKey?: string): Promise<void> {
  await page.evaluate(
    ([value, key]) => {
      if (key) localStorage.setItem(key, value);
      document.documentElement.dataset.theme = value;
    },
    [theme, storageKey] as const,
  );
  await animationsSettled(page);
}

export const phoneAndDesktop = { mobile: { width: 375, height: 812 }, desktop: { width: 1280, height: 900 } };

/**
 * axe on the page as it is now, in the light and the dark theme (switched as the toggle does) at
 * each of `viewports`; on the narrowest the page must not scroll sideways either. Returns the
 * violations, labelled; leaves the page light and at the last size. With `screenshots`, each state
 * is saved as `${screenshots}-${theme}-${width}.png` (full page) to look at.
 */
export async function accessibilityViolations(
  page: Page,
  label: string,
  {
    viewports = phoneAndDesktop,
    screenshots,
  }: { viewports?: Record<string, { width: number; height: number }>; screenshots?: string } = {},
): Promise<string[]> {
  const violations: string[] = [];
  const narrowest = Math.min(...Object.values(viewports).map((size) => size.width));
  for (const theme of ['light', 'dark'] as const) {
    await switchTheme(page, theme, themeStorageKey);
    for (const [width, size] of Object.entries(viewports)) {
      await page.setViewportSize(size);
      await animationsSettled(page);
      const result = await new AxeBuilder({ page }).analyze();
      for (const violation of result.violations) {
        violations.push(
          `${label} (${theme}, ${width}): ${violation.id} ${violation.nodes.map((node) => node.target).join(' ')}`,
        );
      }
      if (size.width === narrowest) {
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > size.width)
          violations.push(`${label} (${theme}): ${scrollWidth}px wide on a phone`);
      }
      if (screenshots)
        await page.screenshot({ path: `${screenshots}-${theme}-${size.width}.png`, fullPage: true });
    }
  }
  await switchTheme(page, 'light', themeStorageKey);
  return violations;
}

/**
 * Playwright's clock on every page of `context` (install it before the first page opens), with a
 * count, for `runClock`, of what the page waits for in real time: its fetches under way, and its
 * Web Lock requests not yet granted.
 */
export async function installClock(context: BrowserContext): Promise<void> {
  await context.clock.install({ time: new Date() });
  await context.addInitScript(() => {
    const page = window as unknown as { workUnderWay: number };
    page.workUnderWay = 0;
    const fetch = window.fetch.bind(window);
    window.fetch = (...args: Parameters<typeof fetch>) => {
      page.workUnderWay++;
      return fetch(...args).finally(() => {
        page.workUnderWay--;
      });
    };
    const locks = navigator.locks as unknown as
      | { request: (...args: unknown[]) => Promise<unknown> }
      | undefined;
    if (!locks) return;
    const request = locks.request.bind(locks);
    locks.request = (...args) => {
      const callback = args[args.length - 1] as (lock: unknown) => unknown;
      let waiting = true;
      const settled = () => {
        if (!waiting) return;
        waiting = false;
        page.workUnderWay--;
      };
      page.workUnderWay++;
      const answer = request(...args.slice(0, -1), (lock: unknown) => {
        settled();
        return callback(lock);
      });
      // Aborted or refused: no longer waited for (handled here, so no unhandled rejection).
      answer.then(settled, settled);
      return answer;
    };
  });
}

/**
 * Runs the page's clock `ms` forward without outrunning the page's real-time work: in steps shorter
 * than the Auth0 SDK's 10 s fetch timeout, each waiting (in real time) for the page's fetches to
 * settle. One long `page.clock.runFor` fires that timeout under a token refresh started mid-step,
 * before the identity provider (on real time) has answered; the SDK retries with the refresh token
 * the first attempt already rotated, and the session ends with "Session expired". Before a refresh
 * the SDK also asks for a Web Lock and gives up after 5 s on the page's clock; the browser grants
 * it in real time, so each step waits for that too. Without it, a busy machine let the next step
 * fire those 5 s before the grant: the refresh failed and the session ended.
 */
export async function runClock(page: Page, ms: number, stepMs = 5_000): Promise<void> {
  const underWay = () =>
    page.evaluate(() => (window as unknown as { workUnderWay?: number }).workUnderWay ?? 0);
  for (let left = ms; left > 0; left -= stepMs) {
    await page.clock.runFor(Math.min(stepMs, left));
    const deadline = Date.now() + 15_000;
    for (;;) {
      let count: number;
      try {
        count = await underWay();
      } catch (error) {
        // The page navigated away (a logout): the document the clock ran for is gone.
        if (/Execution context was destroyed|navigat/i.test(String(error))) return;
        throw error;
      }
      if (count === 0) break;
      if (Date.now() > deadline)
        throw new Error('a fetch or Web Lock request of the page did not settle within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
