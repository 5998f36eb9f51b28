import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWeb, startWeb } from '#local/web/index.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// `npm start` serves the web through Vite's dev server (the README's quick start), which the
// stack tests do not: they run the production build. A page must render and start there too,
// with the head script inlined and no error, or the first thing a new engineer sees is broken.

let web: RunningWeb;
let api: Server;
let browser: Browser;
const apiHeaders: IncomingHttpHeaders[] = [];
const originSecret = 'local-origin-secret-for-the-dev-test';

beforeAll(async () => {
  api = createServer((req, res) => {
    apiHeaders.push(req.headers);
    req.resume();
    res.writeHead(404, { 'Content-Type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }));
  });
  const apiPort = await freePort();
  await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));
  web = await startWeb({
    mode: 'dev',
    port: await freePort(),
    apiUrl: `http://127.0.0.1:${apiPort}`,
    originSecret,
    config: {
      stage: 'test',
      auth0: {
        domain: 'http://127.0.0.1:9',
        clientId: 'client',
        audience: 'https://api.test',
        claimsNamespace: 'https://platform.test/',
      },
      persona: { environmentId: 'env_test' },
    },
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await new Promise((resolve) => api?.close(resolve));
});

describe('local web server in dev mode (npm start)', () => {
  it("proxies /api like CloudFront's behaviour: the origin secret and the viewer's address, never a client's copies", async () => {
    await fetch(`${web.url}/api/waitlist`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-origin-verify': 'guessed',
        'x-viewer-ip': '203.0.113.9',
      },
      body: '{}',
    });
    const headers = apiHeaders.at(-1) ?? {};
    expect(headers['x-origin-verify']).toBe(originSecret);
    expect(headers['x-viewer-ip']).toMatch(/^(127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
  });

  it('renders and starts the home and pricing pages with the head script and without an error', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    for (const [route, heading] of [
      ['/', /./],
      ['/pricing', /Pricing/],
    ] as const) {
      await page.goto(`${web.url}${route}`);
      await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      // Started: the auth slot left its Loading state, and the theme came from the head script.
      await page.locator('.nav-auth:not(.nav-auth--pending)').first().waitFor({ state: 'attached' });
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toMatch(/^(light|dark)$/);
      // A first-time visitor: the banner is asked for and shown, its buttons live.
      const banner = page.getByRole('region', { name: 'Cookies on this site' });
      await expect.poll(() => banner.getByRole('button', { name: 'Reject all' }).isEnabled()).toBe(true);
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('serves the German pages under /de from the same server, and the language switch between them (ADR 0089)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${web.url}/de/pricing`);
    await page.getByRole('heading', { level: 1, name: 'Preise' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByRole('region', { name: 'Cookies auf dieser Website' }).waitFor();
    // The switch leads to the English page and remembers the choice.
    await page
      .getByRole('navigation', { name: 'Hauptmenü' })
      .getByRole('link', { name: 'Read in English' })
      .click();
    await page.waitForURL(`${web.url}/pricing`);
    await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('answers an unknown page 404 with the 404 page and redirects the old short URLs, as the edge does', async () => {
    const page404 = await fetch(`${web.url}/no/such/page`, { headers: { Accept: 'text/html' } });
    expect(page404.status).toBe(404);
    expect(page404.headers.get('content-type')).toMatch(/^text\/html/);
    const moved = await fetch(`${web.url}/terms`, { headers: { Accept: 'text/html' }, redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/terms-and-conditions');
    // Known pages, app routes and the dev server's own module requests keep answering 200.
    for (const route of ['/register', '/dashboard', '/src/main.tsx', '/@vite/client']) {
      const response = await fetch(`${web.url}${route}`, { headers: { Accept: 'text/html' } });
      expect(response.status, route).toBe(200);
      await response.arrayBuffer();
    }

    // A client that asks for anything (curl, fetch, a link checker) gets the same statuses.
    for (const [route, status] of [
      ['/no/such/page', 404],
      ['/register', 200],
      ['/src/main.tsx', 200],
    ] as const) {
      const response = await fetch(`${web.url}${route}`, { headers: { Accept: '*/*' } });
      expect(response.status, `${route} for */*`).toBe(status);
      await response.arrayBuffer();
    }

    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${web.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await context.close();
  }, 120_000);
});
