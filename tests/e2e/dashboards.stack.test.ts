import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { animationsSettled, launchBrowser, switchTheme } from '#tests/helpers/browser.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { passwordToken } from '#tests/helpers/tokens.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { themeStorageKey } from '#web/lib/theme-key.ts';

// The dashboards and the account screen in real Chromium, from the production build on the local
// stack, signed in through the identity provider's own login page: the seeded approved commercial
// user reaches its dashboards, an action dialog and its consent history; the seeded approved
// defense user reaches its dashboard and is turned away from the commercial one and from the
// admin queue. No console error, no CSP violation, and axe finds nothing on any screen in either
// theme at phone or desktop width.

const stack = inject('stack');
const viewports = { mobile: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };
const themes = ['light', 'dark'] as const;

function account(prefix: string) {
  const found = stack.accounts.find((entry) => entry.email.startsWith(prefix));
  if (!found) throw new Error(`no seeded account ${prefix}`);
  return found;
}
const commercial = account('commercial@');
const defense = account('defense@');

// Nobody is asked about cookies here: the banner has its own tests.
const consented = {
  'cookie-consent': JSON.stringify({
    essential: true,
    analytics: false,
    marketing: false,
    personalization: false,
  }),
  'cookie-consent-date': new Date().toISOString(),
  'cookie-consent-revision': cookiePolicyRevision,
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Visitor {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and CSP violations, on every page the visitor opened. */
  problems: string[];
}

async function visitor(): Promise<Visitor> {
  const context = await browser.newContext({ viewport: viewports.desktop });
  const problems: string[] = [];
  await context.exposeBinding('__reportCspViolation', ({ page }, detail: string) => {
    problems.push(`CSP on ${page.url()}: ${detail}`);
  });
  await context.addInitScript((storage) => {
    // Only the first visit sets the storage: later reloads keep what the test chose (the theme).
    if (!localStorage.getItem('cookie-consent')) {
      for (const [key, value] of Object.entries(storage)) localStorage.setItem(key, value);
    }
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __reportCspViolation(detail: string): void }).__reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI}`,
      );
    });
  }, consented);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console on ${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
  return { context, page, problems };
}

/** Opens an app route signed out: the shell sends the browser to the login page and back. */
async function signIn(page: Page, route: string, user: { email: string; password: string }) {
  await page.goto(`${stack.web}${route}`);
  await page.waitForURL(/\/u\/login\//);
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

const main = (page: Page) => page.getByRole('main');
const heading = (page: Page, name: string | RegExp) =>
  main(page).getByRole('heading', { level: 1, name }).waitFor();

/** What the theme toggle does (web/src/lib/theme.ts): the stored choice and `data-theme`. */
async function setTheme(page: Page, theme: (typeof themes)[number]) {
  await switchTheme(page, theme, themeStorageKey);
}

/** axe in both themes at both widths; the page must not scroll sideways on a phone. */
async function accessible(page: Page, label: string): Promise<string[]> {
  const violations: string[] = [];
  for (const theme of themes) {
    await setTheme(page, theme);
    for (const [width, size] of Object.entries(viewports)) {
      await page.setViewportSize(size);
      await animationsSettled(page);
      const result = await new AxeBuilder({ page }).analyze();
      for (const violation of result.violations) {
        violations.push(
          `${label} (${theme}, ${width}): ${violation.id} ${violation.nodes.map((node) => node.target).join(' ')}`,
        );
      }
      if (width === 'mobile') {
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > size.width)
          violations.push(`${label} (${theme}): ${scrollWidth}px wide on a phone`);
      }
    }
  }
  await page.setViewportSize(viewports.desktop);
  return violations;
}

describe('an approved commercial user', () => {
  it('reaches the commercial dashboard from /dashboard, its dialog, and the account with its consent history', async () => {
    // A consent in the ledger, recorded through the API as the consent dialog does.
    const token = await passwordToken(stack, commercial.email, commercial.password);
    const consent = await fetch(`${stack.web}/api/consents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        identity_verification_consent: true,
        biometric_data_consent: true,
        privacy_policy_consent: true,
        consent_type: 'identity_verification',
      }),
    });
    expect(consent.status).toBe(201);

    const { context, page, problems } = await visitor();
    const violations: string[] = [];

    // `/dashboard` (the nav's Dashboard, the approval email's link) opens an approved user's
    // segment dashboard: one way, whichever door (ADR 0085).
    await signIn(page, '/dashboard', commercial);
    await page.waitForURL(`${stack.web}/commercial-dashboard`);
    await heading(page, 'Commercial Space Operations');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
    await nav.getByRole('button', { name: 'Log Out' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Request Beta Access' }).count()).toBe(0);
    violations.push(...(await accessible(page, '/commercial-dashboard')));

    // One theme toggle and one Log Out: the header's.
    expect(
      await main(page)
        .getByRole('button', { name: /^Switch to (dark|light) theme$/ })
        .count(),
    ).toBe(0);
    expect(await main(page).getByRole('button', { name: 'Log Out' }).count()).toBe(0);
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Switch to (dark|light) theme$/ })
      .click();
    const after = await page.evaluate(() => document.documentElement.dataset.theme);
    expect(after).not.toBe(before);
    expect(await page.evaluate((key) => localStorage.getItem(key), themeStorageKey)).toBe(after);

    // A quick action answers in a modal dialog; Escape closes it and focus returns to the action.
    const action = main(page).getByRole('button', { name: 'View Fleet Status' });
    await action.click();
    const dialog = page.getByRole('dialog', { name: 'View Fleet Status' });
    await dialog.waitFor();
    // A seeded account has no organization (ADR 0083), so it cannot file a service request (ADR
    // 0088): the dialog says how to reach us; tests/e2e/service-requests.stack.test.ts sends them.
    expect(
      await dialog
        .getByText('This capability is available after onboarding with your account manager.', {
          exact: false,
        })
        .isVisible(),
    ).toBe(true);
    expect(
      await dialog
        .getByRole('button', { name: 'Close' })
        .evaluate((element) => element === document.activeElement),
    ).toBe(true);
    const withDialog = await new AxeBuilder({ page }).analyze();
    violations.push(...withDialog.violations.map((violation) => `action dialog: ${violation.id}`));
    // Opened with showModal(): the top layer, the page behind it inert.
    expect(await page.evaluate(() => document.querySelector('dialog')?.matches(':modal'))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await action.evaluate((element) => element === document.activeElement)).toBe(true);

    await main(page).getByRole('link', { name: 'Your Account' }).click();
    await page.waitForURL(`${stack.web}/user-account`);
    await heading(page, 'Your Account');
    const history = main(page).getByRole('region', { name: 'Consent History' });
    const record = history.getByRole('listitem').first();
    await record.waitFor();
    expect(await record.textContent()).toContain('Identity verification consent');
    expect(await record.textContent()).toContain('Granted');
    expect(await record.textContent()).toContain('Text version 2026-11-01');
    expect(await record.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    violations.push(...(await accessible(page, '/user-account')));

    // A deletion request for the account's own address, through its user route, after confirming.
    const deletion = main(page).getByRole('region', { name: 'Delete Your Data' });
    await deletion.getByRole('textbox', { name: /Details/ }).fill('Browser test: please ignore.');
    await deletion.getByRole('button', { name: 'Request Deletion' }).click();
    await deletion.getByRole('button', { name: 'Send Deletion Request' }).click();
    await deletion.getByRole('heading', { name: 'Request received' }).waitFor();
    const requestId = (await deletion.locator('code').textContent()) ?? '';
    // The request itself (beside it, the account's pointer to its pending request, ADR 0076).
    const stored = (await stackDb(stack).scan('Submissions')).filter(
      (item) => item.requestId === requestId && item.kind === 'deletion_request',
    );
    expect(stored).toEqual([expect.objectContaining({ kind: 'deletion_request', email: commercial.email })]);

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});

describe('an approved defense user', () => {
  it('reaches the defense dashboard, is sent back from the commercial one and refused the admin queue', async () => {
    const { context, page, problems } = await visitor();
    const violations: string[] = [];

    await signIn(page, '/defense-dashboard', defense);
    await page.waitForURL(`${stack.web}/defense-dashboard`);
    const defenseReady = () => heading(page, 'Defense and Government Dashboard');
    await defenseReady();
    expect(await main(page).getByRole('note').textContent()).toContain('Classified access');
    violations.push(...(await accessible(page, '/defense-dashboard')));

    await page.goto(`${stack.web}/commercial-dashboard`);
    await page.waitForURL(`${stack.web}/defense-dashboard`);
    await defenseReady();

    await page.goto(`${stack.web}/admin/verification`);
    await heading(page, 'Access denied');
    expect(page.url()).toBe(`${stack.web}/admin/verification`);
    violations.push(...(await accessible(page, '/admin/verification (403)')));

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
