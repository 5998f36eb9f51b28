import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consentDocuments } from '#contracts/consent-documents.ts';
import { dataExport } from '#contracts/data-export.ts';
import { accessibilityViolations, launchBrowser, phoneAndDesktop } from '#tests/helpers/browser.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { giveConsent, personaWidget, signedInNewUser } from '#tests/helpers/kyc-journey.ts';
import { settleEvents } from '#tests/helpers/persona-webhooks.ts';
import { passwordToken } from '#tests/helpers/tokens.ts';

// The journey's account page in real Chromium (issue 26, done-criterion), from the production build
// on the local stack: a person who registered, signed in and was verified sees their consent
// history, withdraws their consent in the dialog (the consequences first, the safe choice focused),
// then a standing notice of what is kept, why and until when, even after a reload; files a deletion
// request and sees it pending with its dates after a reload; downloads their data. axe finds nothing
// in the light or the dark theme at phone or desktop width, in any of these states, and no console
// error or CSP violation happens. And the status screen of a verification submitted but not decided
// when the person withdrew: it says it was stopped, and offers the consent again.

const stack = inject('stack');
const db = stackDb(stack);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const main = (page: Page) => page.getByRole('main');

/** axe in both themes at both widths; the page must not scroll sideways on a phone. */
async function accessible(page: Page, label: string): Promise<string[]> {
  const violations = await accessibilityViolations(page, label);
  await page.setViewportSize(phoneAndDesktop.desktop);
  return violations;
}

const isFocused = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate((element) => element === document.activeElement);

const withdrawnNotice = [
  'We no longer process your data for identity verification, and no verification can start until you give your consent again.',
  'Your verification had already been decided, so we keep its record and evidence for 5 years after your account is closed, because anti-money-laundering law requires it (§\u00a08(4) GwG, EU Directive 2015/849, Art.\u00a040). We use it for nothing else.',
  'We keep the records of your consent and of its withdrawal for 10 years after your account is closed, as proof of what you agreed to and when (GDPR Art.\u00a07(1)). Nothing else is processed.',
];

describe('the account page of a verified person', () => {
  it('shows the consent history, withdraws consent through the dialog, keeps a notice of what is kept, shows a pending deletion request and downloads the data; axe finds nothing in either theme', async () => {
    const journey = await signedInNewUser(browser, stack, 'commercial');
    const { page, problems, context } = journey;
    const token = await passwordToken(stack, journey.email, journey.password);
    const userId = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;
    // Consent as the dialog records it, and a decided verification.
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
    await db.approve(userId);
    const violations: string[] = [];

    await page.goto(`${stack.web}/user-account`);
    await main(page).getByRole('heading', { level: 1, name: 'Your Account' }).waitFor();
    const profile = main(page).getByRole('region', { name: 'Profile' });
    expect(await profile.getByRole('definition').allTextContents()).toEqual([
      'Ada Lovelace',
      journey.email,
      'Helix Labs',
      'Commercial/Enterprise',
      'Verified',
    ]);

    // The consent history: the verification consent on top of the registration's three agreements.
    const history = main(page).getByRole('region', { name: 'Consent History' });
    const records = history.getByRole('listitem');
    await records.first().waitFor();
    expect(await records.count()).toBe(4);
    expect(await records.first().textContent()).toMatch(/^Identity verification consentGranted/);
    expect(await records.first().textContent()).toContain('In the consent dialog');
    violations.push(...(await accessible(page, 'consent history')));

    // The dialog says the consequences before anything happens; the safe choice has the focus.
    const opener = history.getByRole('button', { name: 'Withdraw consent' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw your consent to identity verification?' });
    await dialog.waitFor();
    expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
    expect(await dialog.locator('p').allTextContents()).toEqual([
      'We stop processing your identity verification. A verification that is not decided yet is cancelled at our verification provider, and you cannot start one again until you give your consent again.',
      'If your verification has already been decided, we keep its record and evidence for 5 years after your account is closed, because anti-money-laundering law requires it (§\u00a08(4) GwG, EU Directive 2015/849, Art.\u00a040). We use it for nothing else.',
      'Your consent history keeps both records, the consent you gave and this withdrawal, for 10 years after your account is closed, as proof of what you agreed to and when (GDPR Art.\u00a07(1)).',
    ]);
    expect(await isFocused(dialog.getByRole('button', { name: 'Keep my consent' }))).toBe(true);
    violations.push(...(await accessible(page, 'withdraw-consent dialog')));
    // Escape changes nothing and gives the focus back.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await isFocused(opener)).toBe(true);
    expect(await records.count()).toBe(4);

    await opener.click();
    await dialog.getByRole('button', { name: 'Withdraw consent' }).click();
    await page.getByText('Your consent is withdrawn.').waitFor();
    const notice = main(page).getByRole('region', {
      name: 'Your consent to identity verification is withdrawn',
    });
    await notice.waitFor();
    expect(await notice.locator('p').allTextContents()).toEqual(withdrawnNotice);
    expect(await isFocused(notice.getByRole('heading'))).toBe(true);
    await expect.poll(() => records.count()).toBe(5);
    expect(await records.first().textContent()).toMatch(/^Identity verification consentWithdrawn/);
    expect(await records.first().textContent()).toContain('On your account page');
    expect(await history.getByRole('button', { name: 'Withdraw consent' }).count()).toBe(0);
    violations.push(...(await accessible(page, 'after the withdrawal')));

    // The notice stands: after a reload it comes from GET /api/me's consentWithdrawn.
    await page.reload();
    await notice.waitFor();
    expect(await notice.locator('p').allTextContents()).toEqual(withdrawnNotice);

    // A deletion request, then, after a reload, the pending request with its dates.
    const deletion = main(page).getByRole('region', { name: 'Delete Your Data' });
    await deletion.getByRole('button', { name: 'Request Deletion' }).click();
    await deletion.getByRole('heading', { name: 'Confirm your deletion request' }).waitFor();
    await deletion.getByRole('button', { name: 'Send Deletion Request' }).click();
    await deletion.getByRole('heading', { name: 'Request received' }).waitFor();
    const requestId = (await deletion.locator('code').textContent()) ?? '';
    expect(requestId).toMatch(/\S/);
    await page.reload();
    await deletion.getByRole('heading', { name: 'Deletion requested' }).waitFor();
    expect(await deletion.locator('code').textContent()).toBe(requestId);
    const dates = deletion.locator('.deletion-pending > p').first();
    expect(await dates.textContent()).toMatch(/^Requested on .+, due by .+\.$/);
    expect(
      await dates.locator('time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime'))),
    ).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT/), expect.stringMatching(/^\d{4}-\d\d-\d\d$/)]);
    await deletion.getByRole('button', { name: 'Cancel Deletion Request' }).waitFor();
    expect(await deletion.getByRole('button', { name: 'Request Deletion' }).count()).toBe(0);
    violations.push(...(await accessible(page, 'pending deletion request')));

    // Download my data: a JSON file with the consent records, the withdrawal among them.
    const section = main(page).getByRole('region', { name: 'Your Data' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.json$/);
    const saved = dataExport.parse(JSON.parse(await readFile((await download.path()) ?? '', 'utf8')));
    expect(saved.profile).toMatchObject({ userId, email: journey.email });
    expect(
      saved.consents.filter((record) => record.purpose === 'identity_verification').map((r) => r.action),
    ).toEqual(['granted', 'withdrawn']);
    await page.getByText('Your data was saved as a JSON file.').waitFor();
    violations.push(...(await accessible(page, 'after the download')));

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});

describe('the status screen of a verification stopped by a withdrawal', () => {
  it('says the verification was stopped because the person withdrew consent and offers the consent dialog again; axe finds nothing in either theme', async () => {
    const journey = await signedInNewUser(browser, stack, 'commercial');
    const { page, problems, context } = journey;
    await giveConsent(stack, journey);
    await personaWidget(page).getByRole('button', { name: 'Needs review' }).click();
    await page.waitForURL(`${stack.web}/auth/kyc-complete`);
    await main(page).getByRole('heading', { level: 1, name: 'Verification In Progress' }).waitFor();
    await settleEvents(stack);

    // Withdrawn from the account page's route: Persona redacts the submitted inquiry.
    const token = await passwordToken(stack, journey.email, journey.password);
    const withdrawal = await fetch(`${stack.web}/api/me/consent-withdrawals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ consent_type: 'identity_verification' }),
    });
    expect(withdrawal.status).toBe(201);

    await page.reload();
    await main(page).getByRole('heading', { level: 1, name: 'Verification Stopped' }).waitFor();
    expect(await main(page).locator('p').first().textContent()).toBe(
      'You withdrew your consent to identity verification, so we stopped your verification before it was decided. It will not be decided, and no new verification can start until you give your consent again.',
    );
    expect(
      await main(page)
        .getByText(/being reviewed/)
        .count(),
    ).toBe(0);
    expect(await main(page).getByRole('link', { name: 'Your Account' }).getAttribute('href')).toBe(
      '/user-account',
    );
    const violations = await accessible(page, 'status screen, stopped');

    await main(page).getByRole('button', { name: 'Give Consent Again' }).click();
    const dialog = page.getByRole('dialog', { name: consentDocuments.identity_verification.title });
    await dialog.waitFor();
    violations.push(...(await accessible(page, 'status screen, consent dialog')));
    for (const statement of consentDocuments.identity_verification.statements) {
      await dialog.getByRole('checkbox', { name: statement.text }).check();
    }
    await dialog.getByRole('button', { name: 'Agree and Continue' }).click();
    await page.getByText('Consent recorded successfully!', { exact: false }).waitFor();
    // The stopped verification is not resumed: the person verifies again, in a new inquiry.
    await page.waitForURL(`${stack.web}/kyc/persona`);
    await personaWidget(page).getByRole('button', { name: 'Needs review' }).waitFor();

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
