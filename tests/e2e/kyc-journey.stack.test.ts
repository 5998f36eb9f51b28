import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { OrganizationType } from '#contracts/organization.ts';
import { launchBrowser, switchTheme } from '#tests/helpers/browser.ts';
import { journeySteps } from '#tests/helpers/journey-steps.ts';
import {
  giveConsent as consent,
  type Journey,
  signedInNewUser as newUser,
  personaWidget,
  watch,
} from '#tests/helpers/kyc-journey.ts';

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

function signedInNewUser(
  organizationType: OrganizationType,
  theme: 'light' | 'dark' = 'light',
  steps?: ReturnType<typeof journeySteps>,
): Promise<Journey> {
  return newUser(browser, stack, organizationType, { theme, steps });
}

function giveConsent(
  journey: Journey,
  options: { axe?: boolean; steps?: ReturnType<typeof journeySteps> } = {},
) {
  const check = options.axe ? (label: string) => expectAccessible(journey.page, label) : undefined;
  return consent(stack, journey, { steps: options.steps, check });
}

const widget = personaWidget;

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
      steps.mark('webhook -> status screen shows Approved (pushed on the realtime channel, ADR 0060)');
      await expectAccessible(page, 'approved', ['light']);
      steps.skip();
      await page.waitForURL(`${stack.web}/commercial-dashboard`, { timeout: 10_000 });
      steps.mark('approved screen -> /commercial-dashboard (the screen waits 3 s by design)');
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
    '"Decline" -> the rejected screen with the reason, the contact page, and no Verify again',
    async () => {
      const journey = await signedInNewUser('academic');
      const { page } = journey;
      await giveConsent(journey);

      await chooseOutcome(page, 'Decline');
      await page.waitForURL(`${stack.web}/auth/kyc-complete`);
      await page
        .getByRole('heading', { level: 1, name: 'Verification Unsuccessful' })
        .waitFor({ timeout: 20_000 });
      // Persona's own decision: its reason code's message, and the contact page (ADR 0058).
      await page.getByText('The automatic checks could not confirm your identity').waitFor();
      const contact = page.getByRole('link', { name: 'Contact Support' });
      expect(await contact.getAttribute('href')).toBe('/contact');
      expect(await page.getByRole('button', { name: 'Verify again' }).count()).toBe(0);
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
    '"Needs review" -> the defense pending screen, which listens for the decision and stays pending',
    async () => {
      const journey = await signedInNewUser('government');
      const { page } = journey;
      await giveConsent(journey);

      // The screen waits on the push channel (ADR 0060): subscribed, it asks GET /api/me once.
      const meCalls: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/me') meCalls.push(request.url());
      });
      let subscribed = false;
      page.on('websocket', (socket) =>
        socket.on('framereceived', ({ payload }) => {
          if (String(payload).includes('"subscribe_success"')) subscribed = true;
        }),
      );
      await chooseOutcome(page, 'Needs review');
      await page.waitForURL(`${stack.web}/auth/kyc-complete-defense`);
      await page.getByRole('heading', { level: 1, name: 'Security Clearance In Progress' }).waitFor();
      await page.getByText(/2-5 business days/).waitFor();
      await expect.poll(() => subscribed, { timeout: 15_000 }).toBe(true);
      await expect.poll(() => meCalls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
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
