import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consentDocuments } from '#contracts/consent-documents.ts';
import { accessibilityViolations, launchBrowser, phoneAndDesktop } from '#tests/helpers/browser.ts';
import { journeyContext, signedInNewUser } from '#tests/helpers/kyc-journey.ts';
import { mailbox } from '#tests/helpers/tokens.ts';

// Issue 28's registration journey in real Chromium, from the production build on the local stack
// (ADR 0086): the hero's "Register your organization"; the wizard's steps as history entries (the
// browser's Back goes to the previous step with the values kept); the address shown before
// "Create Account" and on /check-your-email; "Resend" sending the login instructions again until
// the per-recipient limit, with nothing on the page telling whether the address had an account;
// the first sign-in landing on "Registration Successful"; the setup dashboard's consent given in
// place. axe finds nothing on each changed page in both themes at 375 and 1280 px, and no console
// error or CSP violation happens.

const stack = inject('stack');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const uniqueEmail = () => `journey-${randomBytes(5).toString('hex')}@helix-labs.example`;

const stepHeading = (page: Page, step: number) =>
  page.getByRole('heading', { level: 2, name: new RegExp(`^Step ${step} of 3`) });

const mailsTo = async (email: string) =>
  (await mailbox(stack)).filter((mail) => mail.destination.to.includes(email));

const settle = () => fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });

/** axe as the helper runs it (both themes, 375 and 1280 px); leaves the page at desktop width. */
async function accessible(page: Page, label: string): Promise<string[]> {
  const violations = await accessibilityViolations(page, label);
  await page.setViewportSize(phoneAndDesktop.desktop);
  return violations;
}

describe('registering from the hero', () => {
  it('walks the wizard with the browser Back, shows the address, and resends up to the limit', async () => {
    const email = uniqueEmail();
    const { context, problems } = await journeyContext(browser, stack);
    const page = await context.newPage();
    const violations: string[] = [];

    // The hero's first call to action registers (the nav keeps its own).
    await page.goto(`${stack.web}/`);
    const hero = page.locator('section.hero');
    const register = hero.getByRole('link', { name: 'Register your organization' });
    expect(await register.isVisible()).toBe(true);
    violations.push(...(await accessible(page, '/')));
    await register.click();
    await page.waitForURL(`${stack.web}/register`);
    await expect.poll(() => page.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true);

    // Step 1, then step 2: its own history entry.
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Job title').fill('Chief Scientist');
    await page.getByLabel('Business email').fill(email);
    await page.getByLabel('Phone number').fill('+49 30 1234567');
    await page.getByRole('button', { name: 'Continue' }).click();
    await stepHeading(page, 2).waitFor();
    expect(new URL(page.url()).search).toBe('?step=2');
    await page.getByLabel('Organization name').fill('Helix Labs');

    // The browser's Back: step 1, values kept; Forward: step 2 again, as it was.
    await page.goBack();
    await stepHeading(page, 1).waitFor();
    expect(page.url()).toBe(`${stack.web}/register`);
    expect(await page.getByLabel('Business email').inputValue()).toBe(email);
    expect(await page.getByLabel('Full name').inputValue()).toBe('Ada Lovelace');
    await page.goForward();
    await stepHeading(page, 2).waitFor();
    expect(await page.getByLabel('Organization name').inputValue()).toBe('Helix Labs');
    await page.getByLabel('Website').fill('helix-labs.example');
    await page.getByLabel('Organization type').selectOption({ label: 'Commercial/Enterprise' });
    await page.getByRole('button', { name: 'Continue' }).click();

    // Step 3 shows the address before Create Account.
    await stepHeading(page, 3).waitFor();
    expect(new URL(page.url()).search).toBe('?step=3');
    const review = page.locator('.wizard-review');
    expect(await review.textContent()).toContain(email);
    violations.push(...(await accessible(page, '/register step 3')));
    for (const name of [/terms of service/, /privacy policy/, /non-harmful use policy/])
      await page.getByRole('checkbox', { name }).check();
    await page.getByRole('button', { name: 'Create Account' }).click();

    // /check-your-email names the address and links web inboxes, never a bare mailto:.
    await page.waitForURL(`${stack.web}/check-your-email`);
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
    expect(await page.locator('.check-email__address strong').textContent()).toBe(email);
    expect(await page.locator('main a[href^="mailto:"]').count()).toBe(0);
    expect(await page.getByRole('link', { name: /Open Outlook/ }).getAttribute('href')).toBe(
      'https://outlook.office.com/mail/',
    );
    await expect.poll(async () => (await mailsTo(email)).length, { timeout: 15_000 }).toBe(1);

    // Resend: the login instructions again (the link was never used), three times, then the limit.
    const resend = page.getByRole('button', { name: 'Resend email' });
    for (let sent = 1; sent <= 3; sent++) {
      await resend.click();
      await settle();
      await expect.poll(async () => (await mailsTo(email)).length, { timeout: 15_000 }).toBe(1 + sent);
    }
    await page.getByText('We have sent it again three times', { exact: false }).waitFor();
    expect(await resend.count()).toBe(0);
    // A reload keeps the address and the count (the page's history entry).
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
    expect(await page.locator('.check-email__address strong').textContent()).toBe(email);
    expect(await page.getByRole('button', { name: 'Resend email' }).count()).toBe(0);
    violations.push(...(await accessible(page, '/check-your-email')));
    // The server's limit holds for any caller: a fourth registration of the address sends nothing.
    const again = await fetch(`${stack.web}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        responsibleName: 'Ada Lovelace',
        responsibleTitle: 'Chief Scientist',
        responsibleEmail: email,
        responsiblePhone: '+49 30 1234567',
        organizationName: 'Helix Labs',
        organizationUrl: 'https://helix-labs.example',
        organizationType: 'commercial',
        termsAgreed: true,
        privacyAgreed: true,
        nonHarmAgreed: true,
      }),
    });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ success: true });
    await settle();
    const mails = await mailsTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual(Array(4).fill('Your login instructions'));

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});

describe('after the first sign-in', () => {
  it('welcomes on "Registration Successful", then the setup dashboard takes the consent in place', async () => {
    const journey = await signedInNewUser(browser, stack, 'commercial');
    const { page, problems } = journey;
    const violations: string[] = [];

    // The helper passed /registration-success on its way; its own look and links.
    await page.goto(`${stack.web}/registration-success`);
    await page.getByRole('heading', { level: 1, name: 'Registration Successful' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    violations.push(...(await accessible(page, '/registration-success')));
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL(`${stack.web}/dashboard`);

    const card = page.getByRole('region', { name: 'Identity Verification Required' });
    await card.waitFor();
    violations.push(...(await accessible(page, '/dashboard')));
    await card.getByRole('button', { name: 'Provide Verification Consent' }).click();
    const dialog = page.getByRole('dialog', { name: consentDocuments.identity_verification.title });
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
    expect(page.url()).toBe(`${stack.web}/dashboard`);
    violations.push(...(await accessible(page, '/dashboard with the consent dialog')));
    for (const statement of consentDocuments.identity_verification.statements)
      await dialog.getByRole('checkbox', { name: statement.text }).check();
    await dialog.getByRole('button', { name: 'Agree and Continue' }).click();

    await page.getByText('Consent recorded successfully!', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Continue to Verification' }).waitFor();
    expect(await dialog.isVisible()).toBe(false);
    expect(page.url()).toBe(`${stack.web}/dashboard`);

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await journey.context.close();
  }, 240_000);
});
