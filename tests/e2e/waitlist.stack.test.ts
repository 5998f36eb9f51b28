import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';

// The slice through every layer: browser -> web (production build) -> /api proxy -> local API
// gateway -> handler -> DynamoDB Local.

const stack = inject('stack');
const db = stackDb(stack);
const waitlistItems = async () => (await db.scan('Submissions')).filter((item) => item.kind === 'waitlist');
const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${stack.web}/api/waitlist`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('GET /api/health', () => {
  it('answers ok through the web origin', async () => {
    const response = await fetch(`${stack.web}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('POST /api/waitlist', () => {
  it('stores a valid address in DynamoDB', async () => {
    const response = await post({ email: 'grace@hopper-labs.example' });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ success: true });
    const items = await waitlistItems();
    expect(items).toContainEqual(
      expect.objectContaining({
        email: 'grace@hopper-labs.example',
        pk: 'WAITLIST#grace@hopper-labs.example',
      }),
    );
  });

  it('stores the same address once, whatever its case, and answers the same both times', async () => {
    const first = await post({ email: 'twice@example.org' });
    const second = await post({ email: 'TWICE@example.org' });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await waitlistItems()).filter((item) => item.email === 'twice@example.org')).toHaveLength(1);
  });

  it.each([
    [{ email: '' }, 'email', 'Please enter your email address'],
    [{ email: 'no-at-sign' }, 'email', 'Please enter a valid email address'],
    [{ email: 'a@b.co', role: 'admin' }, 'role', 'This field is not allowed.'],
    [{}, 'email', 'Please enter your email address'],
  ])('rejects %j with a field error and writes nothing', async (body, field, message) => {
    const before = (await waitlistItems()).length;
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = await response.json();
    expect(problem).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(problem.errors).toContainEqual({ field, message });
    expect(await waitlistItems()).toHaveLength(before);
  });

  it('answers 413 to a 100 KiB body and writes nothing', async () => {
    const before = (await waitlistItems()).length;
    const response = await post({ email: `${'x'.repeat(100 * 1024)}@example.com` });
    expect(response.status).toBe(413);
    expect(await waitlistItems()).toHaveLength(before);
  });
});

describe('the waitlist form in the web shell', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('saves an address typed by a visitor and confirms it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(stack.web);
    await page.getByLabel(/email/i).fill('visitor@quantum-bio.example');
    await page.getByRole('button', { name: /join|notify|request|sign up|waitlist|submit/i }).click();
    await expect
      .poll(() => page.getByText('Successfully registered for updates!').count())
      .toBeGreaterThan(0);
    expect(await waitlistItems()).toContainEqual(
      expect.objectContaining({ email: 'visitor@quantum-bio.example' }),
    );
    await context.close();
  });

  it('shows the exact message for a bad address and stores nothing', async () => {
    const before = (await waitlistItems()).length;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(stack.web);
    await page.getByLabel(/email/i).fill('not-an-address');
    await page.getByRole('button', { name: /join|notify|request|sign up|waitlist|submit/i }).click();
    await expect.poll(() => page.getByText('Please enter a valid email address').count()).toBeGreaterThan(0);
    expect(await waitlistItems()).toHaveLength(before);
    await context.close();
  });
});
