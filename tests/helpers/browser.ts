import { type Browser, chromium, type Page } from 'playwright-core';

// Debian's chromium, never a downloaded browser; flags keep it off the (closed) network.
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every headless Chromium here runs with (tests and the Lighthouse bench). */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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
