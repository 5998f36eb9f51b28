import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { germanConsentDocuments, germanRegistrationDocuments } from '#contracts/consent-documents.ts';
import { germanLiterals } from '#contracts/messages-de.ts';
import { accessibilityViolations, launchBrowser } from '#tests/helpers/browser.ts';
import { journeyContext } from '#tests/helpers/kyc-journey.ts';
import { mailbox } from '#tests/helpers/tokens.ts';
import { checkYourEmail } from '#web/content/de/check-your-email.ts';
import { dashboardsCopy } from '#web/content/de/dashboards.ts';
import { kycCopy } from '#web/content/de/kyc.ts';
import { kycPersonaCopy } from '#web/content/de/kyc-persona.ts';
import { organizationTypeNames } from '#web/content/de/organization.ts';
import { registration } from '#web/content/de/registration.ts';
import { signInCopy } from '#web/content/de/sign-in.ts';

// The onboarding journey in German (issue 28, done-criterion: `locale` de), in real Chromium on the
// production build: a German reader registers on /de/register (the form validates in German), gets
// the German login instructions, sets a password on the identity provider's page (the emulator's,
// English), and finds every screen after it in German: the welcome, the identity verification and
// its consent dialog (the German documents, recorded as German), the Persona step, the status
// screen and the organization's dashboard. axe on the German screens; no console error, no CSP
// violation anywhere.

const stack = inject('stack');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

describe('the journey in German', () => {
  it('registers, signs in and verifies in German, and the consent is recorded as German', async () => {
    const email = `deutsch-${randomBytes(5).toString('hex')}@helix-labs.example`;
    const { context, problems } = await journeyContext(browser, stack);
    // The reader chose German (the switcher's key): every page and screen follows it.
    await context.addInitScript((web) => {
      if (location.origin === web) localStorage.setItem('locale', 'de');
    }, stack.web);
    const page = await context.newPage();
    const violations: string[] = [];
    // The app asks the identity provider for its pages in German (Universal Login's `ui_locales`).
    const authorizeLocales = new Set<string | null>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/authorize') authorizeLocales.add(url.searchParams.get('ui_locales'));
    });

    // English links lead to the German pages.
    await page.goto(`${stack.web}/register`);
    await page.waitForURL(`${stack.web}/de/register`);
    await heading(page, registration.title).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await expect.poll(() => page.getByRole('button', { name: registration.continue }).isEnabled()).toBe(true);

    // Step 1, validated in German before anything is sent.
    await page.getByLabel(registration.fields.responsibleName.label).fill('Ada Lovelace');
    await page.getByLabel(registration.fields.responsibleTitle.label).fill('Chief Scientist');
    await page.getByLabel(registration.fields.responsibleEmail.label).fill('ada@gmail.com');
    await page.getByLabel(registration.fields.responsiblePhone.label).fill('+49 30 1234567');
    await page.getByRole('button', { name: registration.continue }).click();
    await page.getByText(germanLiterals[businessEmailMessages.personal]).waitFor();
    violations.push(...(await accessibilityViolations(page, '/de/register with a German field error')));
    await page.getByLabel(registration.fields.responsibleEmail.label).fill(email);
    await page.getByRole('button', { name: registration.continue }).click();

    // Step 2.
    await page.getByLabel(registration.fields.organizationName.label).fill('Helix Labs');
    await page.getByLabel(registration.fields.organizationUrl.label).fill('helix-labs.example');
    await page
      .getByLabel(registration.fields.organizationType.label)
      .selectOption({ label: organizationTypeNames.commercial });
    await page.getByRole('button', { name: registration.continue }).click();

    // Step 3: the German agreements, linked to the German legal texts.
    for (const agreement of Object.values(germanRegistrationDocuments)) {
      await page.getByRole('checkbox', { name: agreement.statements[0]?.text ?? '' }).check();
    }
    expect(
      await page
        .getByRole('link', { name: new RegExp(registration.agreements.privacyAgreed.read) })
        .getAttribute('href'),
    ).toBe('/de/privacy-policy');
    await page.getByRole('button', { name: registration.submit }).click();
    await page.waitForURL(`${stack.web}/de/check-your-email`);
    await heading(page, checkYourEmail.title).waitFor();

    // The login instructions, in the language of the registration.
    await expect
      .poll(async () => (await mailbox(stack)).some((mail) => mail.destination.to.includes(email)), {
        timeout: 15_000,
      })
      .toBe(true);
    const mail = (await mailbox(stack)).find((entry) => entry.destination.to.includes(email));
    expect(mail?.subject).toBe('Ihre Anleitung zur Anmeldung');
    const ticketUrl = /(http:\/\/localhost:\d+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(
      mail?.body.text ?? '',
    )?.[1];
    if (!ticketUrl) throw new Error(`no password link in the login instructions: ${mail?.body.text}`);

    // The identity provider's pages (the emulator's, in English), then the German welcome.
    const password = `Dt-${randomBytes(9).toString('base64url')}-1`;
    await page.goto(ticketUrl);
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm new password').fill(password);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/u/login/'));
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stack.web}/registration-success`));
    await heading(page, signInCopy.registrationSuccess.title).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect([...authorizeLocales]).toEqual(['de']);

    // The identity verification and its consent, in German.
    await page.goto(`${stack.web}/kyc/start`);
    await heading(page, kycCopy.start.title).waitFor();
    violations.push(...(await accessibilityViolations(page, '/kyc/start (de)')));
    await page.getByRole('button', { name: kycCopy.start.provideConsent }).click();
    const consentDocument = germanConsentDocuments.identity_verification;
    const dialog = page.getByRole('dialog', { name: consentDocument.title });
    await dialog.waitFor();
    violations.push(...(await accessibilityViolations(page, 'the consent dialog (de)')));
    for (const statement of consentDocument.statements) {
      await dialog.getByRole('checkbox', { name: statement.text }).check();
    }
    await dialog.getByRole('button', { name: kycCopy.consent.submit }).click();
    await page.getByText(kycCopy.consent.recorded).waitFor();
    await page.waitForURL(`${stack.web}/kyc/persona`);

    // The person's own ledger names the language and the German text's version.
    const consents = await page.evaluate(async () => {
      const token = Object.entries(localStorage)
        .filter(([key]) => key.startsWith('@@auth0spajs@@'))
        .map(([, value]) => JSON.parse(value) as { body?: { access_token?: string } })
        .find((entry) => entry.body?.access_token)?.body?.access_token;
      const response = await fetch('/api/me/consents', { headers: { Authorization: `Bearer ${token}` } });
      return (await response.json()) as {
        records: { purpose: string; locale: string; documentVersion: string }[];
      };
    });
    expect(
      consents.records
        .filter((record) => record.purpose === 'identity_verification')
        .map((record) => [record.locale, record.documentVersion]),
    ).toEqual([['de', consentDocument.version]]);

    // Persona (the emulator's widget), then the German status screen and dashboard.
    const persona = page.getByRole('dialog', { name: kycPersonaCopy.dialogLabel });
    await persona.waitFor();
    const widget = page.frameLocator(`dialog iframe[title="${kycPersonaCopy.frameTitle}"]`);
    await widget.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(kycPersonaCopy.submitted).waitFor();
    await page.waitForURL(`${stack.web}/auth/kyc-complete`);
    await heading(page, kycCopy.status.commercial.approved.heading).waitFor({ timeout: 20_000 });
    violations.push(...(await accessibilityViolations(page, 'the approved status screen (de)')));
    await page.waitForURL(`${stack.web}/commercial-dashboard`, { timeout: 10_000 });
    await heading(page, dashboardsCopy.commercial.title).waitFor();
    expect(dashboardsCopy.commercial.title).toBe('Kommerzieller Raumfahrtbetrieb');

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
