import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { animationsSettled, launchBrowser } from '#tests/helpers/browser.ts';
import { mailbox, passwordToken } from '#tests/helpers/tokens.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { themeStorageKey } from '#web/lib/theme-key.ts';

// Journey 4 of issue 9 in real Chromium on the production build: a newly registered user is put
// in review by Persona ("Needs review"), the seeded admin approves them with a reason on
// /admin/verification, and the user's status screen, still open, turns approved without a reload.
// The card says why Persona flagged the case (a line from the webhook, the details from Persona
// when opened) and links the inquiry to Persona's dashboard; the decided card is collapsed; the
// queue is searched (ADR 0082). Zero console errors and CSP violations in both browsers; axe finds
// nothing on the queue, in both themes.

const stack = inject('stack');
const admin = stack.accounts.find((account) => account.role === 'admin');
if (!admin) throw new Error('stack.json has no admin account');

const runId = randomBytes(4).toString('hex');
const user = {
  email: `review-${runId}@northwatch-review.example`,
  password: `Review-${randomBytes(9).toString('hex')}`,
  organizationName: `Northwatch Review ${runId}`,
  name: 'Rhea Reviewed',
};
const approvalReason = 'Passport and selfie match; company register entry confirmed by phone.';

let browser: Browser;
const contexts: BrowserContext[] = [];
/** Console errors, page errors and CSP violations of every page, with where they happened. */
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
});

/** A browser profile with the cookie choice made (no banner) and the theme chosen, watched for problems. */
async function newVisitor(options: { theme?: 'light' | 'dark'; mobile?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.mobile ? { width: 390, height: 844 } : { width: 1280, height: 900 },
  });
  contexts.push(context);
  await context.exposeBinding('reportCspViolation', ({ frame }, detail: string) => {
    problems.push(`CSP violation on ${frame.url()}: ${detail}`);
  });
  await context.addInitScript(
    ({ storage }) => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportCspViolation?: (detail: string) => void })
          .reportCspViolation;
        report?.(`${event.violatedDirective} blocked ${event.blockedURI}`);
      });
      if (window.location.port === storage.port) {
        for (const [key, value] of Object.entries(storage.entries)) {
          if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
        }
      }
    },
    {
      storage: {
        port: new URL(stack.web).port,
        entries: {
          'cookie-consent': JSON.stringify({
            essential: true,
            analytics: false,
            marketing: false,
            personalization: false,
          }),
          'cookie-consent-date': new Date().toISOString(),
          'cookie-consent-revision': cookiePolicyRevision,
          [themeStorageKey]: options.theme ?? 'light',
        },
      },
    },
  );
  context.on('page', (page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
  });
  return context.newPage();
}

/** Log In from the site's nav, through the identity provider's own page. */
async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${stack.web}/`);
  await page.getByRole('button', { name: 'Log In' }).first().click();
  await page.waitForURL((url) => url.pathname.startsWith('/u/login'));
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(
    (url) => url.origin === new URL(stack.web).origin && url.pathname !== '/auth/callback',
  );
}

/** The newest email to `address` whose subject matches, once it has arrived. */
async function waitForMail(address: string, subject: RegExp) {
  const newest = async () =>
    (await mailbox(stack))
      .filter((mail) => mail.destination.to.includes(address) && subject.test(mail.subject))
      .at(-1);
  await expect.poll(newest, { timeout: 10_000 }).toBeDefined();
  return newest();
}

const linkIn = (text: string | undefined, pattern: RegExp) => pattern.exec(text ?? '')?.[0];

const api = (path: string, token: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${stack.web}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

describe('an admin approves a user in review, and the user sees it without a reload', () => {
  let userPage: Page;
  let adminPage: Page;

  it('registers a new organization and sets the password through the emailed link', async () => {
    const response = await fetch(`${stack.web}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        responsibleName: user.name,
        responsibleTitle: 'Head of Compliance',
        responsibleEmail: user.email,
        responsiblePhone: '+49 30 5550123',
        organizationName: user.organizationName,
        organizationUrl: 'https://northwatch-review.example',
        organizationType: 'commercial',
        termsAgreed: true,
        privacyAgreed: true,
        nonHarmAgreed: true,
      }),
    });
    expect(response.status).toBe(201);
    const instructions = await waitForMail(user.email, /login instructions/i);
    const ticketUrl = linkIn(instructions?.body.text, /http:\/\/localhost:\d+\/lo\/reset\?ticket=[^\s"<#]+/);
    expect(ticketUrl).toBeDefined();

    userPage = await newVisitor();
    await userPage.goto(ticketUrl as string);
    await userPage.getByLabel('New password', { exact: true }).fill(user.password);
    await userPage.getByLabel('Confirm new password', { exact: true }).fill(user.password);
    await userPage.getByRole('button', { name: 'Reset password' }).click();
    await userPage.waitForLoadState('load');
  });

  it('logs in and reaches identity verification (verifying the email first if asked)', async () => {
    await logIn(userPage, user.email, user.password);
    if (new URL(userPage.url()).pathname === '/verification-required') {
      const verification = await waitForMail(user.email, /verif/i);
      const link = linkIn(
        verification?.body.text,
        /http:\/\/localhost:\d+\/u\/email-verification\?ticket=[^\s"<#]+/,
      );
      const tab = await userPage.context().newPage();
      await tab.goto(link as string);
      await tab.close();
      await userPage.getByRole('button', { name: "I've Verified My Email" }).click();
    }
    await userPage.waitForURL(`${stack.web}/kyc/start`);
  });

  it('gives consent, chooses "Needs review" in the Persona widget and sees the pending status screen', async () => {
    await userPage.getByRole('button', { name: 'Provide Verification Consent' }).click();
    const dialog = userPage.getByRole('dialog');
    for (const checkbox of await dialog.getByRole('checkbox').all()) await checkbox.check();
    await dialog.getByRole('button', { name: 'Agree and Continue' }).click();
    await userPage.waitForURL(`${stack.web}/kyc/persona`);
    const widget = userPage.frameLocator('iframe[title="Verify your identity"]');
    await widget.getByRole('button', { name: 'Needs review' }).click();
    await userPage.waitForURL(`${stack.web}/auth/kyc-complete`);
    await userPage.getByRole('heading', { name: 'Verification In Progress' }).waitFor({ timeout: 15_000 });
  });

  it('shows a user who is not an admin the 403 page on /admin/verification', async () => {
    // A second tab: the first keeps the status screen open.
    const tab = await userPage.context().newPage();
    await tab.goto(`${stack.web}/admin/verification`);
    await tab.getByRole('heading', { name: 'Access denied' }).waitFor();
    await tab.close();
  });

  it('logs the admin in to the queue with "Welcome Admin" and finds the user pending, in full', async () => {
    adminPage = await newVisitor();
    await logIn(adminPage, admin.email, admin.password);
    await adminPage.waitForURL(`${stack.web}/admin/verification`);
    await adminPage.getByText('Welcome Admin').waitFor();
    await adminPage.getByRole('heading', { level: 1, name: 'Verification Review' }).waitFor();
    // The nav gives an administrator the review queue, not the user dashboard (ADR 0082).
    const nav = adminPage.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Verification Review' }).getAttribute('href')).toBe(
      '/admin/verification',
    );
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    const card = adminPage.getByRole('article', { name: user.organizationName });
    await card.waitFor();
    await expect.poll(() => card.locator('header').textContent()).toContain('Pending review');
    const facts = (await card.locator('dl').textContent()) ?? '';
    expect(facts).toContain('Commercial');
    expect(facts).toContain('Commercial/Enterprise');
    expect(facts).toContain(user.email);
    expect(facts).toMatch(/Inquiry ID\s*inq_\w+/);
    const history = card.getByRole('button', { name: /^History \(1 change\)$/ });
    expect(await history.getAttribute('aria-expanded')).toBe('false');
    await history.click();
    expect(await history.getAttribute('aria-expanded')).toBe('true');
    expect(await card.locator('.review-history', { hasText: 'History (' }).textContent()).toMatch(
      /Not started.*Pending review.*By Persona/s,
    );
  });

  it("says why Persona flagged the case and links the inquiry to Persona's dashboard", async () => {
    const card = adminPage.getByRole('article', { name: user.organizationName });
    const inquiryId = /inq_\w+/.exec((await card.locator('dl').textContent()) ?? '')?.[0];
    const persona = card.getByRole('link', { name: /^Open in Persona/ });
    expect(await persona.getAttribute('href')).toBe(
      `https://app.withpersona.com/dashboard/inquiries/${inquiryId}`,
    );
    expect(await persona.getAttribute('target')).toBe('_blank');
    // Said without opening anything: the failed check's name came with Persona's webhook
    // (the emulator's `included`) and is stored with the state (ADR 0082's amendment).
    expect(await card.locator('.review-item__flagged').textContent()).toBe(
      'Flagged by Persona: Selfie id comparison',
    );
    // Read from Persona (the emulator's "Needs review": the selfie did not match) when opened.
    await card.getByRole('button', { name: 'Why Persona flagged it' }).click();
    const check = card.locator('.review-checks__list li', { hasText: 'selfie_id_comparison' });
    await check.waitFor();
    expect(await check.textContent()).toContain(
      'The face in the selfie does not match the portrait on the ID.',
    );
    expect((await card.textContent()) ?? '').toContain('Selfie verification: Failed');
  });

  it('refuses a decision without a reason code, then approves with one and a note: the item leaves the queue', async () => {
    const card = adminPage.getByRole('article', { name: user.organizationName });
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByText('Choose the reason for the decision').waitFor();
    // The reviewer's list: each reason code, named with its decision.
    const codes = await card.getByLabel('Reason shown to the user').locator('option').allTextContents();
    expect(codes).toContain('Approve: Identity confirmed by a reviewer');
    expect(codes).toContain('Reject: Document photo unreadable');

    const decisions: string[] = [];
    adminPage.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/decision')) {
        decisions.push(`${new URL(request.url()).pathname} ${request.postData()}`);
      }
    });
    await card.getByLabel('Reason shown to the user').selectOption('identity_confirmed');
    await card.getByLabel('Internal note (optional)').fill(approvalReason);
    await card.getByRole('button', { name: 'Approve' }).click();
    await adminPage.getByText('Verification Approved').waitFor();
    await card.waitFor({ state: 'detached' });
    const token = await passwordToken(stack, user.email, user.password);
    const userId = ((await (await api('/api/me', token)).json()) as { userId: string }).userId;
    expect(decisions).toEqual([
      `/api/admin/verifications/${encodeURIComponent(userId)}/decision ${JSON.stringify({ decision: 'approved', reasonCode: 'identity_confirmed', reason: approvalReason })}`,
    ]);
    // Focus went on: to the next item's heading, or to the list's heading when none is left.
    const focused = await adminPage.evaluate(() => document.activeElement?.tagName);
    expect(['H2', 'H3']).toContain(focused);
  });

  it("lists the decision under Approved with the admin's reason, and keeps the filter across a reload", async () => {
    await adminPage
      .getByRole('navigation', { name: 'Filter by status' })
      .getByRole('link', { name: 'Approved' })
      .click();
    await adminPage.waitForURL(`${stack.web}/admin/verification?status=approved`);
    await adminPage.reload();
    const card = adminPage.getByRole('article', { name: user.organizationName });
    await card.waitFor();
    // Decided: collapsed to its summary, no reason box open, until the reviewer opens it.
    expect((await card.textContent()) ?? '').toContain('Reason given: Identity confirmed by a reviewer');
    expect(await card.getByLabel('Internal note (optional)').count()).toBe(0);
    expect(await card.getByRole('form').count()).toBe(0);
    await card.getByRole('button', { name: /^Show details/ }).click();
    await card.getByRole('form').waitFor();
    await card.getByText(/^History \(2 changes\)$/).click();
    const history = (await card.locator('.review-history', { hasText: 'History (' }).textContent()) ?? '';
    expect(history).toMatch(/Pending review.*Approved.*By You/s);
    expect(history).toContain('Reason given: Identity confirmed by a reviewer');
    expect(history).toContain(approvalReason);
    expect((await card.locator('dl').textContent()) ?? '').toContain('Identity confirmed by a reviewer');
    // The admin audit trail (ADR 0078), loaded when opened: the decision, by whom, and why.
    await card.getByText(/^Audit trail$/).click();
    const entry = card.getByRole('listitem').filter({ hasText: 'Decided: Pending review' });
    await entry.waitFor();
    const trail = (await entry.textContent()) ?? '';
    expect(trail).toMatch(/Decided: Pending review.*Approved.*By You · Entry #\d+/s);
    expect(trail).toContain(`Why: ${approvalReason}`);
    await adminPage.goBack();
    await adminPage.waitForURL(`${stack.web}/admin/verification`);
  });

  it("turns the user's open status screen approved without a reload, then opens the segment's dashboard", async () => {
    await userPage.getByRole('heading', { name: 'Verification Approved' }).waitFor({ timeout: 20_000 });
    await userPage.waitForURL(`${stack.web}/commercial-dashboard`, { timeout: 10_000 });
  });

  it('finds the user by searching their email under All, from the URL, and clears the search', async () => {
    await adminPage.goto(`${stack.web}/admin/verification?status=all`);
    await adminPage.getByRole('article').first().waitFor();
    await adminPage
      .getByRole('searchbox', { name: 'Search by organization or email' })
      .fill(user.email.toUpperCase());
    await adminPage.getByRole('button', { name: 'Search', exact: true }).click();
    await adminPage.waitForURL((url) => url.searchParams.get('q') === user.email.toUpperCase());
    await adminPage.getByRole('heading', { level: 2, name: /matching/ }).waitFor();
    const cards = adminPage.getByRole('article');
    await expect.poll(() => cards.count()).toBe(1);
    await adminPage.getByRole('article', { name: user.organizationName }).waitFor();
    // By organization too, oldest first: the order lives in the URL beside the search.
    await adminPage.goto(
      `${stack.web}/admin/verification?status=approved&sort=oldest&q=${encodeURIComponent(user.organizationName)}`,
    );
    await adminPage.getByRole('article', { name: user.organizationName }).waitFor();
    expect(await adminPage.getByRole('combobox', { name: 'Order' }).inputValue()).toBe('oldest');
    await adminPage.getByRole('link', { name: 'Clear search' }).click();
    await adminPage.waitForURL(`${stack.web}/admin/verification?status=approved&sort=oldest`);
  });

  it.each([
    ['light', false],
    ['dark', false],
    ['light', true],
    ['dark', true],
  ] as const)('axe finds no violation on the queue in the %s theme (mobile: %s)', async (theme, mobile) => {
    await adminPage.evaluate(([key, value]) => localStorage.setItem(key, value), [
      themeStorageKey,
      theme,
    ] as const);
    await adminPage.setViewportSize(mobile ? { width: 390, height: 844 } : { width: 1280, height: 900 });
    await adminPage.goto(`${stack.web}/admin/verification?status=all`);
    const firstCard = adminPage.getByRole('article').first();
    await firstCard.waitFor();
    // A decided card opened, and every disclosure of the card opened.
    const show = firstCard.getByRole('button', { name: /^Show details/ });
    if ((await show.count()) > 0) await show.click();
    for (const toggle of await firstCard.locator('button.review-disclosure__toggle').all())
      await toggle.click();
    // What the disclosures load has arrived (entries, or the sentence that there are none).
    await expect
      .poll(() => firstCard.textContent(), { timeout: 10_000 })
      .not.toMatch(/Loading the audit trail|Loading Persona's checks/);
    // The collapsed cards and the search too: a second card of another status, collapsed.
    await adminPage.getByRole('searchbox', { name: 'Search by organization or email' }).waitFor();
    expect(await adminPage.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    await animationsSettled(adminPage);
    const result = await new AxeBuilder({ page: adminPage }).analyze();
    expect(result.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target}`)).toEqual(
      [],
    );
    // Nothing scrolls sideways on a phone.
    expect(await adminPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
      true,
    );
  });

  it('reaches every control of the queue by keyboard', async () => {
    await adminPage.goto(`${stack.web}/admin/verification?status=all`);
    await adminPage.getByRole('article').first().waitFor();
    const reached = new Set<string>();
    let opened = false;
    for (let step = 0; step < 40; step++) {
      await adminPage.keyboard.press('Tab');
      const name = await adminPage.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return element ? `${element.tagName}:${element.textContent?.trim().slice(0, 20) ?? ''}` : '';
      });
      reached.add(name);
      // A decided card is collapsed: Enter on Show details opens it, and Tab goes on into it.
      if (!opened && name.startsWith('BUTTON:Show details')) {
        await adminPage.keyboard.press('Enter');
        opened = true;
      }
    }
    expect(opened).toBe(true);
    for (const control of [
      'A:Pending',
      'A:All',
      'BUTTON:Refresh',
      'INPUT:',
      'BUTTON:Search',
      'SELECT:Newest change first',
      'BUTTON:Show details',
      'BUTTON:Why Persona flagged',
      'BUTTON:History',
      'TEXTAREA:',
      'BUTTON:Reject',
    ]) {
      expect(
        [...reached].some((name) => name.startsWith(control)),
        `${control} in ${[...reached]}`,
      ).toBe(true);
    }
  });

  it('had no console error and no CSP violation in either browser', () => {
    expect(problems).toEqual([]);
  });
});
