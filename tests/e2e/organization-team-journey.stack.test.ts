import { randomBytes } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accessibilityViolations, launchBrowser } from '#tests/helpers/browser.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { invitationLink } from '#tests/helpers/invitations.ts';
import {
  giveConsent,
  type Journey,
  journeyContext,
  personaWidget,
  signedInNewUser,
} from '#tests/helpers/kyc-journey.ts';
import { passwordToken } from '#tests/helpers/tokens.ts';

// Issue 27's team in real Chromium (ADR 0084), from the production build on the local stack, in two
// browsers: an organization's approved admin (registered through the API, signed in through the
// organization from the login-instructions email's link) invites a colleague on the team page; the
// colleague follows the emailed invitation, sets a password on the identity provider's page, is
// signed in and joins, gives consent and passes verification in the Persona widget; the admin's
// team page then shows them verified. axe finds nothing on the team page in either theme at phone
// and desktop width. The admin revokes another invitation and changes the colleague's role, then
// removes them (each asked in a dialog): the colleague's next load ends their session, saying why.
// No console error or CSP violation happens on either side, but the one 401 that ends the session.

const stack = inject('stack');
const db = stackDb(stack);
const viewports = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const main = (page: Page) => page.getByRole('main');
const userIdOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** The row of `email` in one of the team page's tables. */
const row = (table: Locator, email: string) => table.getByRole('row').filter({ hasText: email });

/** The invitee's browser: the invitation's link, a password on the provider's page, then joined. */
async function acceptedInvitation(link: URL, email: string): Promise<Journey> {
  const password = `Team-${randomBytes(9).toString('base64url')}-1`;
  const { context, problems } = await journeyContext(browser, stack);
  const page = await context.newPage();
  await page.goto(link.href);
  await page.getByRole('heading', { level: 1, name: 'Join Helix Labs' }).waitFor();
  expect(await page.getByLabel('Email address').inputValue()).toBe(email);
  await page.getByLabel('Choose a password').fill(password);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  // The callback joins the organization the token names, then the journey's first step.
  await page.waitForURL(`${stack.web}/kyc/start`);
  await page.getByRole('heading', { level: 1, name: 'Identity Verification' }).waitFor();
  return { context, page, problems, email, password };
}

describe("an organization's team in the browser", () => {
  it('invites a colleague who joins and is verified; revokes, changes a role and removes on the team page; axe finds nothing', async () => {
    // The founder: registered, signed in through the organization, approved.
    const admin = await signedInNewUser(browser, stack, 'defense');
    const adminPage = admin.page;
    await db.approve(userIdOf(await passwordToken(stack, admin.email, admin.password)));
    await adminPage.goto(`${stack.web}/defense-dashboard`);
    await adminPage.getByRole('navigation').getByRole('link', { name: 'Team', exact: true }).click();
    await adminPage.waitForURL(`${stack.web}/organization`);
    await main(adminPage).getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    const members = main(adminPage).getByRole('table', { name: 'Members of your organization' });
    const invitations = main(adminPage).getByRole('table', { name: 'Invitations not accepted yet' });
    const own = row(members, admin.email);
    await own.waitFor();
    expect(await own.textContent()).toContain('You');
    expect(await own.getByRole('button').count()).toBe(0);
    expect(await own.getByRole('combobox').count()).toBe(0);

    // Two invitations: the colleague's, and one to revoke.
    const colleague = `colleague-${randomBytes(5).toString('hex')}@helix-labs.example`;
    const mistaken = `mistaken-${randomBytes(5).toString('hex')}@helix-labs.example`;
    const form = main(adminPage).getByRole('region', { name: 'Invite a colleague' });
    for (const email of [colleague, mistaken]) {
      await form.getByRole('textbox', { name: 'Business email' }).fill(email);
      expect(await form.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('org_member');
      await form.getByRole('button', { name: 'Send invitation' }).click();
      await adminPage.getByText(`Invitation sent to ${email}.`).waitFor();
      await row(invitations, email).waitFor();
    }

    // The colleague: the emailed link, a password, joined; consent and Persona's approval.
    const { link } = await invitationLink(stack, colleague);
    expect(`${link.origin}${link.pathname}`).toBe(`${stack.web}/auth/login`);
    const invitee = await acceptedInvitation(link, colleague);
    await giveConsent(stack, invitee);
    await personaWidget(invitee.page).getByRole('button', { name: 'Approve' }).click();
    await invitee.page.waitForURL(`${stack.web}/auth/kyc-complete-defense`);
    await main(invitee.page)
      .getByRole('heading', { level: 1, name: 'Security Clearance Approved' })
      .waitFor({ timeout: 20_000 });

    // The admin's team page: the colleague a verified member, the other invitation still pending.
    await adminPage.reload();
    const member = row(members, colleague);
    await member.waitFor();
    expect(await member.getByRole('combobox', { name: `Role of ${colleague}` }).inputValue()).toBe(
      'org_member',
    );
    // Email verified, identity verification.
    expect((await member.getByRole('cell').allTextContents()).slice(1, 3)).toEqual(['Yes', 'Verified']);
    expect(await row(invitations, colleague).count()).toBe(0);
    await row(invitations, mistaken).waitFor();
    const violations = await accessibilityViolations(adminPage, 'team page', {
      viewports,
      screenshots: '/tmp/team-page',
    });

    // Revoked, after the dialog.
    await invitations.getByRole('button', { name: `Revoke the invitation to ${mistaken}` }).click();
    const revoke = adminPage.getByRole('dialog', { name: 'Revoke this invitation?' });
    await revoke.getByRole('button', { name: 'Revoke invitation' }).click();
    await adminPage.getByText(`The invitation to ${mistaken} was revoked.`).waitFor();
    await revoke.waitFor({ state: 'hidden' });
    await main(adminPage).getByText('No invitations are waiting to be accepted.').waitFor();
    await expect
      .poll(() => isFocused(main(adminPage).getByRole('heading', { name: 'Pending invitations' })))
      .toBe(true);

    // The role changed, then the member removed after the dialog.
    await members.getByRole('combobox', { name: `Role of ${colleague}` }).selectOption({ label: 'Admin' });
    await members.getByRole('button', { name: `Save role of ${colleague}` }).click();
    await adminPage.getByText(`The role of ${colleague} was changed.`).waitFor();
    expect(await members.getByRole('combobox', { name: `Role of ${colleague}` }).inputValue()).toBe(
      'org_admin',
    );
    // The removal asks first, the safe choice focused; Cancel changes nothing and gives the focus back.
    const opener = members.getByRole('button', { name: `Remove ${colleague}` });
    await opener.click();
    const remove = adminPage.getByRole('dialog', { name: 'Remove this member?' });
    await remove.waitFor();
    expect(await remove.evaluate((element) => element.matches(':modal'))).toBe(true);
    expect(await isFocused(remove.getByRole('button', { name: 'Cancel' }))).toBe(true);
    violations.push(
      ...(await accessibilityViolations(adminPage, 'remove dialog', {
        viewports,
        screenshots: '/tmp/team-remove-dialog',
      })),
    );
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await remove.waitFor({ state: 'hidden' });
    expect(await isFocused(opener)).toBe(true);
    await opener.click();
    await remove.getByRole('button', { name: 'Remove member' }).click();
    await adminPage.getByText(`${colleague} was removed from your organization.`).waitFor();
    await member.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(main(adminPage).getByRole('heading', { name: 'Members' }))).toBe(true);
    violations.push(
      ...(await accessibilityViolations(adminPage, 'team page after the changes', { viewports })),
    );

    // The removed colleague's next load ends their session, saying why.
    expect(invitee.problems).toEqual([]);
    await invitee.page.goto(`${stack.web}/defense-dashboard`);
    await invitee.page.getByText("You were removed from your organization's workspace.").waitFor();
    await invitee.page.waitForURL(`${stack.web}/`);

    expect(violations).toEqual([]);
    expect(admin.problems).toEqual([]);
    // The 401 of GET /api/me that ends the session is the only problem the browser reports.
    expect(invitee.problems).toEqual([
      expect.stringMatching(/^console error: Failed to load resource: .* 401 .*\/api\/me\)$/),
    ]);
    await invitee.context.close();
    await admin.context.close();
  }, 150_000);

  it('signs a member in through their organization even in a browser that never used the emailed link', async () => {
    const founder = await signedInNewUser(browser, stack, 'commercial');
    await db.approve(userIdOf(await passwordToken(stack, founder.email, founder.password)));
    await founder.context.close();

    // Another browser: no remembered organization, a plain sign-in with the password.
    const { context, problems } = await journeyContext(browser, stack);
    const page = await context.newPage();
    await page.goto(`${stack.web}/organization`);
    await page.waitForURL((url) => url.origin === new URL(stack.idp.issuer).origin);
    expect(new URL(page.url()).searchParams.get('organization')).toBeNull();
    await page.getByLabel('Email address').fill(founder.email);
    await page.getByLabel('Password', { exact: true }).fill(founder.password);
    await page.getByRole('button', { name: 'Continue' }).click();

    // The callback signs in again through the organization over the provider's session (no second
    // form), so the team page's organization-scoped call carries the organization's token.
    await page.waitForURL(`${stack.web}/organization`);
    const members = main(page).getByRole('table', { name: 'Members of your organization' });
    await row(members, founder.email).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('platform.organization'))).toMatch(/^org_/);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
