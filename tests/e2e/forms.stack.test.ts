import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { emailMessages } from '#contracts/common.ts';
import { contactMessages } from '#contracts/contact.ts';
import { investorInquiryMessages } from '#contracts/investor-inquiry.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { mailbox } from '#tests/helpers/tokens.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';

// The public forms of the production build, driven in Chromium: browser -> prerendered page ->
// hydrated form -> /api -> local gateway -> handler -> DynamoDB Local.

const stack = inject('stack');
const db = stackDb(stack);
const itemsOf = async (email: string) =>
  (await db.scan('Submissions')).filter((item) => item.email === email);
const uniqueEmail = (domain = 'quantum-bio.example') => `f-${randomBytes(5).toString('hex')}@${domain}`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens a page with a cookie choice already made (the banner is tested elsewhere) and waits for hydration. */
async function open(
  path: string,
  submitName: string,
  beforeHydration?: (page: Page) => Promise<void>,
): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript((revision) => {
    localStorage.setItem(
      'cookie-consent',
      JSON.stringify({ essential: true, analytics: false, marketing: false, personalization: false }),
    );
    localStorage.setItem('cookie-consent-date', new Date().toISOString());
    localStorage.setItem('cookie-consent-revision', revision);
  }, cookiePolicyRevision);
  const page = await context.newPage();
  if (beforeHydration) {
    // Hold the entry script back until the visitor has typed into the prerendered form.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/index-*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${stack.web}${path}`, { waitUntil: 'load' });
    await beforeHydration(page);
    release();
  } else {
    await page.goto(`${stack.web}${path}`);
  }
  // The prerendered button stays disabled until React has hydrated the form.
  const submit = page.getByRole('button', { name: submitName });
  await expect.poll(() => submit.isEnabled(), { timeout: 15_000 }).toBe(true);
  return page;
}

const textShown = (page: Page, text: string) => () => page.getByText(text, { exact: true }).count();

describe('the waitlist form', () => {
  it('stores the address a visitor types and confirms with a toast', async () => {
    const email = uniqueEmail();
    const page = await open('/', 'Notify me');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Notify me' }).click();

    await expect.poll(textShown(page, 'Successfully registered for updates!')).toBe(1);
    expect(await itemsOf(email)).toEqual([expect.objectContaining({ kind: 'waitlist', email })]);
    await page.context().close();
  });

  it('asks for an email address on an empty submit', async () => {
    const page = await open('/', 'Notify me');
    await page.getByRole('button', { name: 'Notify me' }).click();
    await expect.poll(textShown(page, emailMessages.required)).toBe(1);
    await page.context().close();
  });
});

describe.each([
  {
    path: '/investors',
    submit: 'Send inquiry',
    kind: 'investor_inquiry',
    success: 'Thank you. Our investor relations team will be in touch shortly.',
    nameRequired: investorInquiryMessages.nameRequired,
  },
  {
    path: '/contact',
    submit: 'Send message',
    kind: 'contact_message',
    success: 'Thank you for your message. We will get back to you within one business day.',
    nameRequired: contactMessages.nameRequired,
  },
])('the $path form', ({ path, submit, kind, success, nameRequired }) => {
  async function fill(page: Page, email: string) {
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('Business email').fill(email);
    await page.getByLabel(/^Organization/).fill('Hopper Labs');
    await page
      .getByRole('textbox', { name: /^Message/ })
      .fill('We would like to talk about the satellite vision.');
  }

  it('stores what the visitor sent and confirms it', async () => {
    const email = uniqueEmail();
    const page = await open(path, submit);
    await fill(page, email);
    await page.getByRole('button', { name: submit }).click();

    await expect.poll(textShown(page, success)).toBe(1);
    expect(await itemsOf(email)).toEqual([
      expect.objectContaining({
        kind,
        email,
        name: 'Grace Hopper',
        organization: 'Hopper Labs',
        message: 'We would like to talk about the satellite vision.',
      }),
    ]);
    await page.context().close();
  });

  it('keeps what the visitor typed before the page finished loading, and sends it', async () => {
    const email = uniqueEmail();
    const page = await open(path, submit, (early) => fill(early, email));
    await page.getByRole('button', { name: submit }).click();

    await expect.poll(textShown(page, success)).toBe(1);
    expect(await itemsOf(email)).toEqual([
      expect.objectContaining({ kind, email, name: 'Grace Hopper', organization: 'Hopper Labs' }),
    ]);
    await page.context().close();
  });

  it('refuses a personal address with the exact message and stores nothing', async () => {
    const email = uniqueEmail('gmail.com');
    const page = await open(path, submit);
    await fill(page, email);
    await page.getByRole('button', { name: submit }).click();

    await expect.poll(textShown(page, businessEmailMessages.personal)).toBe(1);
    expect(await page.getByLabel('Business email').getAttribute('aria-invalid')).toBe('true');
    expect(await itemsOf(email)).toEqual([]);
    await page.context().close();
  });

  it('names every missing required field with the exact message', async () => {
    const page = await open(path, submit);
    await page.getByRole('button', { name: submit }).click();

    await expect.poll(textShown(page, nameRequired)).toBe(1);
    expect(await page.getByText(businessEmailMessages.required, { exact: true }).count()).toBe(1);
    await page.context().close();
  });
});

describe('the data deletion form', () => {
  it('asks to confirm from the inbox; the emailed link opens a page whose button confirms it, 30 days ahead', async () => {
    const email = uniqueEmail('gmail.com'); // any address may ask to be erased
    const page = await open('/data-deletion', 'Request deletion');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Request deletion' }).click();

    const receipt = page.getByRole('status').filter({ hasText: 'Check your inbox to confirm' });
    await expect.poll(() => receipt.count()).toBe(1);
    const [item] = await itemsOf(email);
    expect(item).toMatchObject({ kind: 'deletion_request', email, status: 'unconfirmed' });
    const requestId = String(item?.requestId);
    expect(await receipt.locator('code').textContent()).toBe(requestId);
    await page.context().close();

    let link = '';
    await expect
      .poll(
        async () => {
          const mail = (await mailbox(stack)).find((m) => m.destination.to.includes(email));
          link = /(http\S+\/data-deletion\/confirm#token=\S+)/.exec(mail?.body.text ?? '')?.[1] ?? '';
          return link;
        },
        { timeout: 10_000 },
      )
      .not.toBe('');

    for (const theme of ['dark', 'light'] as const) {
      const confirmPage = await open(link.replace(stack.web, ''), 'Confirm Deletion Request');
      await confirmPage.evaluate((t) => {
        localStorage.setItem('theme', t);
        document.documentElement.setAttribute('data-theme', t);
      }, theme);
      // Opening the link changed nothing.
      expect((await itemsOf(email))[0]).toMatchObject({ status: 'unconfirmed' });
      const violations = (await new AxeBuilder({ page: confirmPage }).analyze()).violations.map((v) => v.id);
      expect(violations).toEqual([]);
      if (theme === 'dark') {
        await confirmPage.context().close();
        continue;
      }
      // By keyboard: focus the button and press Enter.
      await confirmPage.getByRole('button', { name: 'Confirm Deletion Request' }).focus();
      await confirmPage.keyboard.press('Enter');
      const result = confirmPage.getByRole('status').filter({ hasText: 'Deletion request confirmed' });
      await expect.poll(() => result.count()).toBe(1);
      const [confirmed] = await itemsOf(email);
      expect(confirmed).toMatchObject({ status: 'received', confirmedBy: 'email_link' });
      const dueBy = String(confirmed?.dueBy);
      expect(await result.locator('time').getAttribute('datetime')).toBe(dueBy);
      const days = (Date.parse(dueBy) - Date.parse(String(confirmed?.confirmedAt).slice(0, 10))) / 86_400_000;
      expect(days).toBe(30);
      expect((await new AxeBuilder({ page: confirmPage }).analyze()).violations.map((v) => v.id)).toEqual([]);
      await confirmPage.context().close();
    }
  });

  it('rejects a malformed address with the exact message and stores nothing', async () => {
    const page = await open('/data-deletion', 'Request deletion');
    await page.getByLabel('Email address').fill('not-an-address');
    await page.getByRole('button', { name: 'Request deletion' }).click();

    await expect.poll(textShown(page, emailMessages.invalid)).toBe(1);
    expect(await itemsOf('not-an-address')).toEqual([]);
    await page.context().close();
  });
});
