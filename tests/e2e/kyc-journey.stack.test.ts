import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consentDocuments } from '#contracts/consent-documents.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import { launchBrowser, switchTheme } from '#tests/helpers/browser.ts';
import { journeySteps } from '#tests/helpers/journey-steps.ts';
import { mailbox } from '#tests/helpers/tokens.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { themeStorageKey } from '#web/lib/theme-key.ts';

// Identity verification in real Chromium against the local stack, production build and production
// headers: a new organization registers through the API, sets its password from the emailed link
// on the identity provider's page, logs in, gives consent in the dialog, picks an outcome in the
// Persona emulator's widget, and sees the status screen the webhooks lead to. Every page of the
// journey (ours, the identity provider's, the widget's) must log no console error and cause no
// CSP violation; axe checks /kyc/start, the open consent dialog and the status screens.

const stack = inject('stack');
const journeyTimeoutMs = 150_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Journey {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and CSP violations seen so far, in any frame. */
  problems: string[];
  email: string;
  password: string;
}

/** POST /api/registrations through the gateway, then the login-instructions email's link. */
async function register(organizationType: OrganizationType): Promise<{ email: string; ticketUrl: string }> {
  const email = `kyc-${randomBytes(6).toString('hex')}@helix-labs.example`;
  const response = await fetch(`${stack.web}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      responsibleName: 'Ada Lovelace',
      responsibleTitle: 'Chief Scientist',
      responsibleEmail: email,
      responsiblePhone: '+49 30 1234567',
      organizationName: 'Helix Labs',
      organizationUrl: 'https://helix-labs.example',
      organizationType,
      termsAgreed: true,
      privacyAgreed: true,
      nonHarmAgreed: true,
    }),
  });
  expect(response.status).toBe(201);
  await expect
    .poll(async () => (await mailbox(stack)).some((mail) => mail.destination.to.includes(email)), {
      timeout: 15_000,
    })
    .toBe(true);
  const mail = (await mailbox(stack)).find((entry) => entry.destination.to.includes(email));
  const ticketUrl = /(http:\/\/localhost:\d+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(mail?.body.text ?? '')?.[1];
  if (!ticketUrl) throw new Error(`no password link in the login instructions: ${mail?.body.text}`);
  return { email, ticketUrl };
}

async function watch(context: BrowserContext, problems: string[]) {
  await context.exposeBinding('reportCspViolation', (_source, violation: string) => {
    problems.push(`CSP violation: ${violation}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(
        `${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  context.on('console', (message) => {
    if (message.type() === 'error')
      problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`));
}

/**
 * A new user of `organizationType`, signed in through the identity provider's page and standing
 * on the first step of the journey. The password link marks the address verified (the ticket's
 * `mark_email_as_verified`), so such a user goes straight to /kyc/start, never to Verify Your Email.
 */
async function signedInNewUser(
  organizationType: OrganizationType,
  theme: 'light' | 'dark' = 'light',
  steps?: ReturnType<typeof journeySteps>,
): Promise<Journey> {
  const { email, ticketUrl } = await register(organizationType);
  steps?.mark('register (API) until the login-instructions email arrives');
  const password = `Kyc-${randomBytes(9).toString('base64url')}-1`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  await watch(context, problems);
  await context.addInitScript(
    ({ web, themeKey, theme, revision }) => {
      if (location.origin === web && localStorage.getItem('cookie-consent') === null) {
        localStorage.setItem(
          'cookie-consent',
          JSON.stringify({ essential: true, analytics: false, marketing: false, personalization: false }),
        );
        localStorage.setItem('cookie-consent-date', new Date().toISOString());
        localStorage.setItem('cookie-consent-revision', revision);
        localStorage.setItem(themeKey, theme);
      }
    },
    { web: stack.web, themeKey: themeStorageKey, theme, revision: cookiePolicyRevision },
  );
  const page = await context.newPage();
  steps?.skip();

  // The emailed link: the identity provider's page sets the first password.
  await page.goto(ticketUrl);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Reset password' }).click();
  // The password page returns to the login instructions' result URL, `/auth/login`
  // (lambdas/domain/emails/registration-emails.ts): the app starts the login there.
  await page.waitForURL(
    (url) => url.origin === new URL(stack.idp.issuer).origin && url.pathname.startsWith('/u/login/'),
  );
  steps?.mark('password link -> password set -> login page');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${stack.web}/kyc/start`);
  await page.getByRole('heading', { level: 1, name: 'Identity Verification' }).waitFor();
  steps?.mark('login -> /kyc/start shown');
  return { context, page, problems, email, password };
}

/** axe on the page as it is now, in both themes (switched the way the theme toggle does). */
async function expectAccessible(page: Page, label: string, themes: ('light' | 'dark')[] = ['light', 'dark']) {
  const original = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
  for (const theme of themes) {
    await switchTheme(page, theme);
    const result = await new AxeBuilder({ page }).analyze();
    expect(
      result.violations.map((violation) => `${label} (${theme}): ${violation.id}: ${violation.help}`),
    ).toEqual([]);
  }
  await switchTheme(page, original === 'dark' ? 'dark' : 'light');
}

/** From /kyc/start: consent in the dialog, then the widget opens on /kyc/persona. */
async function giveConsent(
  journey: Journey,
  options: { axe?: boolean; steps?: ReturnType<typeof journeySteps> } = {},
) {
  const { page } = journey;
  const { steps } = options;
  if (options.axe) await expectAccessible(page, '/kyc/start');
  steps?.skip(); // axe is the test's check, not the journey's time
  await page.getByRole('button', { name: 'Provide Verification Consent' }).click();
  const dialog = page.getByRole('dialog', { name: consentDocuments.identity_verification.title });
  await dialog.waitFor();
  await expect.poll(() => dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
  steps?.mark('consent button -> consent dialog open');
  if (options.axe) await expectAccessible(page, 'the consent dialog');
  steps?.skip();
  for (const statement of consentDocuments.identity_verification.statements) {
    await dialog.getByRole('checkbox', { name: statement.text }).check();
  }
  await dialog.getByRole('button', { name: 'Agree and Continue' }).click();
  await page.getByText('Consent recorded!').waitFor();
  await page.waitForURL(`${stack.web}/kyc/persona`);
}

/** The Persona emulator's widget, inside our modal. */
function widget(page: Page) {
  return page.frameLocator('dialog iframe[title="Verify your identity"]');
}

async function chooseOutcome(page: Page, outcome: 'Approve' | 'Decline' | 'Needs review') {
  await widget(page).getByRole('button', { name: outcome }).click();
}

describe('identity verification in the browser', () => {
  it('notices a CSP violation and a console error (the watcher these journeys rely on works)', async () => {
    const context = await browser.newContext();
    const problems: string[] = [];
    await watch(context, problems);
    const page = await context.newPage();
    await page.goto(`${stack.web}/`);
    await page.evaluate(() => {
      document.body.setAttribute('style', 'outline: 1px solid red');
      console.error('deliberate');
    });
    await expect.poll(() => problems.join('\n')).toMatch(/^CSP violation: style-src/m);
    expect(problems.join('\n')).toMatch(/^console error: deliberate/m);
    await context.close();
  });

  it(
    'commercial: consent -> Persona "Approve" -> approved -> /dashboard, accessible in both themes',
    async () => {
      const steps = journeySteps();
      const journey = await signedInNewUser('commercial', 'light', steps);
      const { page } = journey;
      await giveConsent(journey, { axe: true, steps });
      steps.mark('statements ticked -> consent recorded -> /kyc/persona');

      const persona = page.getByRole('dialog', { name: 'Identity verification with Persona' });
      await persona.waitFor();
      await expect.poll(() => persona.evaluate((element) => element.matches(':modal'))).toBe(true);
      await widget(page).getByRole('button', { name: 'Approve' }).waitFor();
      steps.mark('Persona widget loaded and ready');
      await chooseOutcome(page, 'Approve');

      await page.getByText('Verification submitted successfully.').waitFor();
      await page.waitForURL(`${stack.web}/auth/kyc-complete`);
      steps.mark('Approve -> submitted -> /auth/kyc-complete');
      await page
        .getByRole('heading', { level: 1, name: 'Verification Approved' })
        .waitFor({ timeout: 20_000 });
      steps.mark(
        'webhook -> status screen shows Approved (the screen checks after 0.5, 1.5, 3.5 s, then every 4 s)',
      );
      await expectAccessible(page, 'approved', ['light']);
      steps.skip();
      await page.waitForURL(`${stack.web}/dashboard`, { timeout: 10_000 });
      steps.mark('approved screen -> /dashboard (the screen waits 3 s by design)');
      steps.save();

      expect(journey.problems).toEqual([]);
      await journey.context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'defense: consent -> "Approve" -> "Security Clearance Approved" -> /defense-dashboard',
    async () => {
      const journey = await signedInNewUser('defense', 'dark');
      const { page } = journey;
      await giveConsent(journey);

      await chooseOutcome(page, 'Approve');
      await page.waitForURL(`${stack.web}/auth/kyc-complete-defense`);
      await page
        .getByRole('heading', { level: 1, name: 'Security Clearance Approved' })
        .waitFor({ timeout: 20_000 });
      await expectAccessible(page, 'defense approved', ['dark']);
      await page.waitForURL(`${stack.web}/defense-dashboard`, { timeout: 10_000 });

      expect(journey.problems).toEqual([]);
      await journey.context.close();
    },
    journeyTimeoutMs,
  );

  it(
    '"Decline" -> the rejected screen with its contact-support mailto',
    async () => {
      const journey = await signedInNewUser('academic');
      const { page } = journey;
      await giveConsent(journey);

      await chooseOutcome(page, 'Decline');
      await page.waitForURL(`${stack.web}/auth/kyc-complete`);
      await page
        .getByRole('heading', { level: 1, name: 'Verification Unsuccessful' })
        .waitFor({ timeout: 20_000 });
      const contact = page.getByRole('link', { name: 'Contact Support' });
      expect(await contact.getAttribute('href')).toMatch(/^mailto:[^@?]+@[^?]+\?subject=/);
      await expectAccessible(page, 'rejected');
      // Decided: nothing more to wait for, and the screen stays.
      await page.waitForTimeout(5000);
      expect(new URL(page.url()).pathname).toBe('/auth/kyc-complete');

      expect(journey.problems).toEqual([]);
      await journey.context.close();
    },
    journeyTimeoutMs,
  );

  it(
    '"Needs review" -> the defense pending screen, which keeps asking and stays pending',
    async () => {
      const journey = await signedInNewUser('government');
      const { page } = journey;
      await giveConsent(journey);

      const meCalls: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/me') meCalls.push(request.url());
      });
      await chooseOutcome(page, 'Needs review');
      await page.waitForURL(`${stack.web}/auth/kyc-complete-defense`);
      await page.getByRole('heading', { level: 1, name: 'Security Clearance In Progress' }).waitFor();
      await page.getByText(/2-5 business days/).waitFor();
      await expect.poll(() => meCalls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      await expectAccessible(page, 'pending');
      expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
      expect(new URL(page.url()).pathname).toBe('/auth/kyc-complete-defense');

      expect(journey.problems).toEqual([]);
      await journey.context.close();
    },
    journeyTimeoutMs,
  );

  it(
    '"Cancel" in the widget -> /dashboard with "Verification canceled"',
    async () => {
      const journey = await signedInNewUser('commercial');
      const { page } = journey;
      await giveConsent(journey);

      await widget(page).getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${stack.web}/dashboard`);
      await page.getByText('Verification canceled').waitFor();

      expect(journey.problems).toEqual([]);
      await journey.context.close();
    },
    journeyTimeoutMs,
  );
});
