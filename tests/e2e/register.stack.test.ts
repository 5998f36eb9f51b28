import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { mailbox } from '#tests/helpers/tokens.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';

// The registration wizard of the production build, in Chromium, under the production headers:
// a visitor registers an organization through the three steps and the login instructions arrive
// in the local SES mailbox; every step and /check-your-email pass axe in both themes, with no
// console error and no CSP violation on the way.

const stack = inject('stack');
const db = stackDb(stack);
const viewports = { mobile: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };
const uniqueEmail = () => `wizard-${randomBytes(5).toString('hex')}@helix-labs.example`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Visit {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and CSP violations, across navigations and reloads. */
  problems: string[];
}

/** A visitor who has made their cookie choice (the banner is tested elsewhere), in a theme. */
async function visit(theme: 'light' | 'dark', viewport: keyof typeof viewports): Promise<Visit> {
  const context = await browser.newContext({ viewport: viewports[viewport] });
  const problems: string[] = [];
  await context.exposeBinding('reportCspViolation', (_source, text: string) => {
    problems.push(`CSP: ${text}`);
  });
  await context.addInitScript(
    ({ theme, revision }) => {
      localStorage.setItem('theme', theme);
      localStorage.setItem(
        'cookie-consent',
        JSON.stringify({ essential: true, analytics: false, marketing: false, personalization: false }),
      );
      localStorage.setItem('cookie-consent-date', new Date().toISOString());
      localStorage.setItem('cookie-consent-revision', revision);
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportCspViolation: (text: string) => void })
          .reportCspViolation;
        report(`${event.violatedDirective} ${event.blockedURI}`);
      });
    },
    { theme, revision: cookiePolicyRevision },
  );
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
  return { context, page, problems };
}

/** Waits until React has hydrated the wizard (its prerendered buttons are disabled until then). */
async function hydrated(page: Page, button = 'Continue') {
  await expect
    .poll(() => page.getByRole('button', { name: button }).isEnabled(), { timeout: 15_000 })
    .toBe(true);
}

async function axe(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map(
    (violation) => `${where}: ${violation.id} (${violation.nodes.map((node) => node.target).join(' ')})`,
  );
}

const stepHeading = (page: Page, step: number) =>
  page.getByRole('heading', { level: 2, name: new RegExp(`^Step ${step} of 3`) });

async function focusedIsHeading(page: Page, step: number): Promise<boolean> {
  return stepHeading(page, step).evaluate((element) => element === document.activeElement);
}

/** Total layout shift the page recorded that no input caused. */
async function unexpectedLayoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[])
            if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
}

describe.each([
  { theme: 'light', viewport: 'desktop', type: 'Commercial/Enterprise', stored: 'commercial' },
  { theme: 'dark', viewport: 'mobile', type: 'Defense/Military', stored: 'defense' },
] as const)('registering in the $theme theme on $viewport', ({ theme, viewport, type, stored }) => {
  it('creates the account, shows /check-your-email and the login instructions arrive', async () => {
    const email = uniqueEmail();
    const { context, page, problems } = await visit(theme, viewport);
    const violations: string[] = [];

    await page.goto(`${stack.web}/register`);
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    violations.push(...(await axe(page, 'step 1')));

    // Step 1: a personal address is refused on the email field, before anything is sent.
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Job title').fill('Chief Scientist');
    await page.getByLabel('Business email').fill(email.replace(/@.*/, '@gmail.com'));
    await page.getByLabel('Phone number').fill('+49 30 1234567');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(businessEmailMessages.personal, { exact: true }).waitFor();
    expect(await page.getByLabel('Business email').getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.getByLabel('Business email').evaluate((element) => element === document.activeElement),
    ).toBe(true);
    violations.push(...(await axe(page, 'step 1 with an error')));
    await page.getByLabel('Business email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();

    // Step 2, by keyboard; the progress survives a reload.
    await stepHeading(page, 2).waitFor();
    expect(await focusedIsHeading(page, 2)).toBe(true);
    violations.push(...(await axe(page, 'step 2')));
    await page.getByLabel('Organization name').fill('Helix Labs');
    await page.getByLabel('Website').fill('helix-labs.example');
    await page.getByLabel('Organization type').selectOption({ label: type });
    await page.reload();
    await hydrated(page);
    await stepHeading(page, 2).waitFor();
    expect(await unexpectedLayoutShift(page)).toBeLessThan(0.01);
    expect(await page.getByLabel('Organization name').inputValue()).toBe('Helix Labs');
    await page.getByLabel('Website').focus();
    await page.keyboard.press('Enter');

    // Step 3: the agreements, ticked from the keyboard.
    await stepHeading(page, 3).waitFor();
    expect(await focusedIsHeading(page, 3)).toBe(true);
    violations.push(...(await axe(page, 'step 3')));
    for (const name of [/terms of service/, /privacy policy/, /non-harmful use policy/]) {
      await page.getByRole('checkbox', { name }).focus();
      await page.keyboard.press('Space');
    }
    await page.getByRole('button', { name: 'Create Account' }).click();

    await page.waitForURL(`${stack.web}/check-your-email`);
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
    await page.getByText('Registration Successful!').waitFor();
    expect(await page.getByText('Please check your email for login instructions.').count()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('registration_data'))).toBeNull();
    // The address it sent to, and the web inboxes rather than a bare mailto: (ADR 0086).
    expect(await page.locator('.check-email__address strong').textContent()).toBe(email);
    expect(await page.locator('main a[href^="mailto:"]').count()).toBe(0);
    violations.push(...(await axe(page, '/check-your-email (toast showing)')));
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
    violations.push(...(await axe(page, '/check-your-email')));
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(viewports[viewport].width);

    // The account exists, and its login instructions are in the mailbox.
    await expect
      .poll(async () => (await mailbox(stack)).filter((mail) => mail.destination.to.includes(email)), {
        timeout: 15_000,
      })
      .toEqual([expect.objectContaining({ subject: 'Your login instructions' })]);
    const registrations = (await db.scan('Submissions')).filter(
      (item) => item.email === email && String(item.pk).startsWith('REGISTRATION#'),
    );
    expect(registrations).toEqual([
      expect.objectContaining({
        organizationName: 'Helix Labs',
        organizationType: stored,
        organizationUrl: 'https://helix-labs.example',
      }),
    ]);

    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL(`${stack.web}/`);

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});

describe('the prerendered wizard', () => {
  it('keeps what the visitor typed before the page finished loading', async () => {
    const { context, page, problems } = await visit('light', 'desktop');
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/index-*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${stack.web}/register`, { waitUntil: 'load' });
    expect(await page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true);
    await page.getByLabel('Full name').fill('Grace Hopper');
    release();
    await hydrated(page);

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Title must have at least 2 characters', { exact: true }).waitFor();
    expect(await page.getByLabel('Full name').inputValue()).toBe('Grace Hopper');
    expect(await page.getByLabel('Full name').getAttribute('aria-invalid')).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});
