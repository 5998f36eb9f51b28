import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { consentDocuments } from '#contracts/consent-documents.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import type { StackInfo } from '#local/stack.ts';
import { sampleRegistrationRequest } from '#scripts/lib/sample-registration-request.ts';
import type { journeySteps } from '#tests/helpers/journey-steps.ts';
import { mailbox } from '#tests/helpers/tokens.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { themeStorageKey } from '#web/lib/theme-key.ts';

// The identity-verification journey's steps in real Chromium against the local stack, shared by
// the browser tests that need a fresh user on /kyc/start or in front of the Persona widget: register
// through the API, set the password from the emailed link on the identity provider's page, log in,
// give consent in the dialog. Every page (ours, the identity provider's, the widget's) is watched
// for console errors and CSP violations.

export interface Journey {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and CSP violations seen so far, in any frame. */
  problems: string[];
  email: string;
  password: string;
}

type Steps = ReturnType<typeof journeySteps>;

/** POST /api/registrations through the gateway, then the login-instructions email's link. */
export async function register(
  stack: StackInfo,
  organizationType: OrganizationType,
): Promise<{ email: string; ticketUrl: string }> {
  const email = `kyc-${randomBytes(6).toString('hex')}@helix-labs.example`;
  const response = await fetch(`${stack.web}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...sampleRegistrationRequest, responsibleEmail: email, organizationType }),
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

/** Collects, into `problems`, every console error, page error and CSP violation of the context. */
export async function watch(context: BrowserContext, problems: string[]): Promise<void> {
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

export interface NewUserOptions {
  theme?: 'light' | 'dark';
  steps?: Steps;
  /** Runs on the new context before its first page opens (e.g. Playwright's `context.clock.install`). */
  prepare?: (context: BrowserContext) => Promise<void>;
}

/**
 * A browser context as a journey's: desktop-sized, watched for problems (`watch`), with the
 * cookie banner answered and the theme chosen on the site's origin before its first page.
 */
export async function journeyContext(
  browser: Browser,
  stack: StackInfo,
  { theme = 'light' }: { theme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; problems: string[] }> {
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
  return { context, problems };
}

/**
 * A new user of `organizationType`, signed in through the identity provider's page and standing
 * on the first step of the journey. The password link marks the address verified (the ticket's
 * `mark_email_as_verified`), so such a user goes straight to /kyc/start, never to Verify Your Email.
 */
export async function signedInNewUser(
  browser: Browser,
  stack: StackInfo,
  organizationType: OrganizationType,
  { theme = 'light', steps, prepare }: NewUserOptions = {},
): Promise<Journey> {
  const { email, ticketUrl } = await register(stack, organizationType);
  steps?.mark('register (API) until the login-instructions email arrives');
  const password = `Kyc-${randomBytes(9).toString('base64url')}-1`;
  const { context, problems } = await journeyContext(browser, stack, { theme });
  await prepare?.(context);
  const page = await context.newPage();
  steps?.skip();

  // The emailed link: the identity provider's page sets the first password.
  await page.goto(ticketUrl);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Reset password' }).click();
  // The password page returns to the login instructions' result URL, `/registration-success`
  // (lambdas/domain/emails/registration-emails.ts): the app starts the login there.
  await page.waitForURL(
    (url) => url.origin === new URL(stack.idp.issuer).origin && url.pathname.startsWith('/u/login/'),
  );
  steps?.mark('password link -> password set -> login page');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  // The first sign-in after the password link lands on /registration-success (ADR 0086); the
  // journey's first step is /kyc/start from there.
  await page.waitForURL((url) => url.href.startsWith(`${stack.web}/registration-success`));
  await page.getByRole('heading', { level: 1, name: 'Registration Successful' }).waitFor();
  steps?.mark('login -> /registration-success shown');
  await page.goto(`${stack.web}/kyc/start`);
  await page.getByRole('heading', { level: 1, name: 'Identity Verification' }).waitFor();
  steps?.skip();
  return { context, page, problems, email, password };
}

export interface ConsentOptions {
  steps?: Steps;
  /** Runs on /kyc/start and again with the consent dialog open (the journey's axe checks). */
  check?: (label: string) => Promise<void>;
}

/** From /kyc/start: consent in the dialog, then the widget opens on /kyc/persona. */
export async function giveConsent(
  stack: StackInfo,
  journey: Journey,
  { steps, check }: ConsentOptions = {},
): Promise<void> {
  const { page } = journey;
  await check?.('/kyc/start');
  steps?.skip(); // the checks are the test's, not the journey's time
  await page.getByRole('button', { name: 'Provide Verification Consent' }).click();
  const dialog = page.getByRole('dialog', { name: consentDocuments.identity_verification.title });
  await dialog.waitFor();
  await expect.poll(() => dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
  steps?.mark('consent button -> consent dialog open');
  await check?.('the consent dialog');
  steps?.skip();
  for (const statement of consentDocuments.identity_verification.statements) {
    await dialog.getByRole('checkbox', { name: statement.text }).check();
  }
  await dialog.getByRole('button', { name: 'Agree and Continue' }).click();
  await page.getByText('Consent recorded successfully!', { exact: false }).waitFor();
  await page.waitForURL(`${stack.web}/kyc/persona`);
}

/** The Persona emulator's widget, inside our modal. */
export function personaWidget(page: Page): FrameLocator {
  return page.frameLocator('dialog iframe[title="Verify your identity"]');
}
