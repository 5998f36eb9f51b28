import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { appPaths, paths } from '#web/config/paths.ts';
import { localizedPublicPath, localizedPublicPaths } from '#web/config/site-paths.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { site as siteDe } from '#web/content/de/site.ts';
import { site } from '#web/content/site.ts';

// The public site as a visitor gets it from the production build: prerendered content before any
// script, a clean axe report in both themes at both widths, every control reachable by keyboard,
// and the cookie banner's choice stored in the browser and logged in DynamoDB Local. Every page in
// both languages: English at its path, German under /de (ADR 0089).

const stack = inject('stack');
const routes = localizedPublicPaths.map((entry) => entry.path);
/** The site's copy in a page's language. */
const copyOf = (route: string) => (localizedPublicPath(route)?.locale === 'de' ? siteDe : site);
/** The cookie banner's name on a page, in the page's language. */
const bannerName = (route: string) => copyOf(route).cookieBanner.title;
const viewports = { mobile: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** A fresh visitor; `storage` is written before any page script runs. */
async function visitor(
  options: { storage?: Record<string, string>; viewport?: keyof typeof viewports; javaScript?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: viewports[options.viewport ?? 'desktop'],
    javaScriptEnabled: options.javaScript ?? true,
  });
  if (options.storage) {
    await context.addInitScript((entries) => {
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, options.storage);
  }
  return context;
}

const consented = {
  'cookie-consent': JSON.stringify({
    essential: true,
    analytics: false,
    marketing: false,
    personalization: false,
  }),
  'cookie-consent-date': new Date().toISOString(),
  'cookie-consent-revision': cookiePolicyRevision,
};

/** Hydrated: the auth slot has left its prerendered Loading state. */
async function hydrated(page: Page): Promise<void> {
  await page.locator('.nav-auth:not(.nav-auth--pending)').first().waitFor({ state: 'attached' });
}

describe('prerendered HTML', () => {
  it.each(routes)('serves %s with its heading, nav and footer in the HTML itself', async (route) => {
    const response = await fetch(`${stack.web}${route}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toMatch(/<h1[^>]*>[^<]{3,}/);
    expect(root).toContain(`aria-label="${copyOf(route).nav.label}"`);
    expect(root).toContain('<footer');
  });

  it("sets no <base> on any page, so the CSP forbids one outright (base-uri 'none')", async () => {
    for (const route of [...routes, '/no/such/page', appPaths[0] ?? '/dashboard']) {
      const response = await fetch(`${stack.web}${route}`);
      expect(response.headers.get('content-security-policy'), route).toContain("base-uri 'none'");
      expect(await response.text(), route).not.toMatch(/<base[\s>]/i);
    }
  });

  it.each(routes)('shows %s with JavaScript disabled', async (route) => {
    const context = await visitor({ javaScript: false });
    const page = await context.newPage();
    await page.goto(`${stack.web}${route}`);
    expect(await page.getByRole('heading', { level: 1 }).first().isVisible()).toBe(true);
    expect(
      await page
        .getByRole('navigation', { name: copyOf(route).nav.label })
        .getByRole('link')
        .count(),
    ).toBeGreaterThan(3);
    await context.close();
  });

  it('hydrates the prerendered pages without a mismatch or an error', async () => {
    const context = await visitor({ storage: consented });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    for (const route of ['/', '/pricing', '/privacy-policy', '/data-deletion']) {
      await page.goto(`${stack.web}${route}`);
      await hydrated(page);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fetches nothing but its CSS before it has loaded and painted, then starts the app', async () => {
    const context = await visitor({ storage: consented });
    const page = await context.newPage();
    for (const route of ['/', '/investors']) {
      await page.goto(`${stack.web}${route}`);
      await hydrated(page);
      const timing = await page.evaluate(() => {
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        const resources = performance.getEntriesByType('resource').map((entry) => ({
          path: new URL(entry.name).pathname,
          start: entry.startTime,
        }));
        return { load: navigation.loadEventEnd, paint: paint?.startTime ?? Number.NaN, resources };
      });
      const early = timing.resources.filter((entry) => entry.start < timing.load);
      expect(early.map((entry) => entry.path.replace(/-[\w-]+\.css$/, '.css'))).toEqual([
        '/assets/index.css',
      ]);
      const scripts = timing.resources.filter((entry) => entry.path.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(2);
      for (const script of scripts) {
        expect(script.start).toBeGreaterThanOrEqual(timing.load);
        expect(script.start).toBeGreaterThanOrEqual(timing.paint);
      }
    }
    await context.close();
  });

  it('never scrolls sideways on a phone: long German words and addresses wrap', async () => {
    const context = await visitor({ storage: consented, viewport: 'mobile' });
    const page = await context.newPage();
    const wide: string[] = [];
    for (const route of routes) {
      await page.goto(`${stack.web}${route}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > viewports.mobile.width) wide.push(`${route}: ${width}px`);
    }
    expect(wide).toEqual([]);
    await context.close();
  });

  it('lands a section link below the sticky header, from the nav and from a direct URL', async () => {
    const context = await visitor({ storage: consented });
    const page = await context.newPage();
    const headingBelowHeader = async (name: string) => {
      const header = await page.locator('.site-header').boundingBox();
      await expect
        .poll(async () => (await page.getByRole('heading', { level: 2, name }).boundingBox())?.y ?? -1)
        .toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
    };
    await page.goto(`${stack.web}/#vision`);
    await headingBelowHeader('The Vision');
    await page.goto(`${stack.web}/pricing`);
    await hydrated(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Our Framework' }).click();
    await headingBelowHeader('Our Framework');
    await context.close();
  });

  it('offers no dead controls without JavaScript, and the phone header stays compact', async () => {
    const context = await visitor({ javaScript: false, viewport: 'mobile' });
    const page = await context.newPage();
    await page.goto(`${stack.web}/contact`);
    for (const name of ['Open menu', 'Switch colour theme']) {
      expect(await page.getByRole('button', { name }).isVisible()).toBe(false);
    }
    expect(await page.getByText('Loading...').isVisible()).toBe(false);
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Our Framework' })
        .isVisible(),
    ).toBe(true);
    const header = await page
      .locator('.site-header')
      .evaluate((element) => getComputedStyle(element).position);
    expect(header).toBe('static');
    await context.close();
  });

  it.each(['/no/such/page', '/pricing/extra', '/404.html'])(
    'answers %s with HTTP 404 and the prerendered 404 page',
    async (route) => {
      const response = await fetch(`${stack.web}${route}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(html).toMatch(/<h1[^>]*>Page not found<\/h1>/);
      expect(html).toContain('<meta name="robots" content="noindex"/>');
    },
  );

  it.each([...appPaths, paths.adminVerification.getHref('pending')])(
    'answers the app route %s with 200 and the app shell, never the home page',
    async (route) => {
      const response = await fetch(`${stack.web}${route}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('class="container app-shell-pending"');
      expect(html).not.toContain('data-prerendered');
      expect(html).not.toContain('id="framework"');
    },
  );

  it('answers a missing chunk with a 404 that is not HTML', async () => {
    const response = await fetch(`${stack.web}/assets/no-such-chunk.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).not.toContain('html');
  });

  it('hydrates the 404 page at an unknown path: the prerendered nodes stay, nothing flashes, no error', async () => {
    const context = await visitor({ storage: consented });
    await context.addInitScript(() => {
      const seen = window as unknown as { prerenderedHeading?: Element | null; hidden?: boolean };
      document.addEventListener('DOMContentLoaded', () => {
        seen.prerenderedHeading = document.querySelector('h1');
        seen.hidden = document.documentElement.dataset.stale !== undefined;
      });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      // Chromium logs the document's own 404 status; that one is the point of this test.
      if (message.type() === 'error' && !message.text().includes('status of 404'))
        errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${stack.web}/no/such/page`);
    expect(response?.status()).toBe(404);
    await hydrated(page);
    const state = await page.evaluate(() => {
      const seen = window as unknown as { prerenderedHeading?: Element | null; hidden?: boolean };
      const heading = document.querySelector('h1');
      return {
        sameHeading: heading !== null && heading === seen.prerenderedHeading,
        hidden: seen.hidden,
        ogUrl: [...document.querySelectorAll('meta[property="og:url"]')].map((m) =>
          m.getAttribute('content'),
        ),
      };
    });
    expect(state.sameHeading).toBe(true);
    expect(state.hidden).toBe(false);
    expect(state.ogUrl).toHaveLength(1);
    expect(state.ogUrl[0]).toMatch(/\/no\/such\/page$/);
    expect(await page.title()).toContain('Page not found');
    expect(await page.locator('link[rel="canonical"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the 404 page with JavaScript disabled', async () => {
    const context = await visitor({ javaScript: false });
    const page = await context.newPage();
    const response = await page.goto(`${stack.web}/no/such/page`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1, name: 'Page not found' }).isVisible()).toBe(true);
    await context.close();
  });

  it('starts an app route from the app shell, never showing the home page, and sends a signed-out visitor to sign in', async () => {
    const context = await visitor({ storage: consented });
    // A binding outlives the navigation to the identity provider, so what the app's document showed is kept in Node.
    const seen = new Set<string>();
    await context.exposeBinding('reportSeen', (_source, what: string) => {
      seen.add(what);
    });
    await context.addInitScript((webOrigin: string) => {
      if (location.origin !== webOrigin) return;
      const report = (window as unknown as { reportSeen: (what: string) => void }).reportSeen;
      // Records, not the document's state when the callback runs: the shell may already be gone by then.
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (!(node instanceof Element)) continue;
            if (node.id === 'framework' || node.querySelector('#framework')) report('home');
            if (node.matches('.app-shell-pending') || node.querySelector('.app-shell-pending'))
              report('shell');
          }
        }
      }).observe(document, { childList: true, subtree: true });
    }, new URL(stack.web).origin);
    const page = await context.newPage();
    const response = await page.goto(`${stack.web}${paths.dashboard.path}`);
    expect(response?.status()).toBe(200);
    expect(await response?.text()).toContain('app-shell-pending');
    await page.waitForURL((url) => url.origin === new URL(stack.idp.issuer).origin, { timeout: 20_000 });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect([...seen]).toEqual(['shell']);
    await context.close();
  });

  it('moves the old short URLs to the full pages with a 301', async () => {
    for (const [from, to] of [
      ['/terms', '/terms-and-conditions'],
      ['/privacy', '/privacy-policy'],
    ]) {
      const response = await fetch(`${stack.web}${from}`, { redirect: 'manual' });
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe(to);
    }
  });
});

describe('accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of ['mobile', 'desktop'] as const) {
      it(`axe finds no violation on any page in the ${theme} theme at ${viewport} width, banner showing`, async () => {
        const context = await visitor({ storage: { theme }, viewport });
        const page = await context.newPage();
        const violations: string[] = [];
        for (const route of routes) {
          await page.goto(`${stack.web}${route}`);
          await hydrated(page);
          await page.getByRole('region', { name: bannerName(route) }).waitFor();
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          const result = await new AxeBuilder({ page }).analyze();
          for (const violation of result.violations) {
            violations.push(
              `${route}: ${violation.id} (${violation.nodes.map((node) => node.target).join(' ')})`,
            );
          }
        }
        expect(violations).toEqual([]);
        await context.close();
      }, 360_000);
    }
  }
});

describe('keyboard', () => {
  it.each(['/', '/contact'])('reaches every control on %s with Tab alone', async (route) => {
    const context = await visitor();
    const page = await context.newPage();
    await page.goto(`${stack.web}${route}`);
    await hydrated(page);
    await page.getByRole('region', { name: 'Cookies on this site' }).waitFor();

    const controls = await page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLElement>(
          'a[href], button:not([disabled]), input:not([disabled]), select, textarea',
        ),
      ]
        .filter(
          (element) =>
            element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden',
        )
        .map((element) => element.outerHTML.slice(0, 120)),
    );
    const reached = new Set<string>();
    for (let step = 0; step < controls.length + 10; step++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? '');
      reached.add(focused);
    }
    expect(controls.filter((control) => !reached.has(control))).toEqual([]);
    await context.close();
  });

  it('opens the mobile menu from the keyboard and closes it with Escape', async () => {
    const context = await visitor({ storage: consented, viewport: 'mobile' });
    const page = await context.newPage();
    await page.goto(`${stack.web}/pricing`);
    await hydrated(page);
    const menu = page.getByRole('button', { name: 'Open menu' });
    await menu.focus();
    await page.keyboard.press('Enter');
    const framework = page.getByRole('link', { name: 'Our Framework' });
    expect(await framework.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await framework.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });
});

describe('cookie banner', () => {
  it('stores a customized choice in the browser and logs it in the consent table through the API', async () => {
    const context = await visitor();
    const page = await context.newPage();
    await page.goto(`${stack.web}/`);
    const banner = page.getByRole('region', { name: 'Cookies on this site' });
    await banner.getByRole('button', { name: 'Customize' }).click();
    await banner.getByRole('checkbox', { name: 'Analytics' }).check();
    await banner.getByRole('button', { name: 'Save choices' }).click();
    await banner.waitFor({ state: 'detached' });

    const stored = await page.evaluate(() => ({
      consent: JSON.parse(localStorage.getItem('cookie-consent') ?? 'null'),
      date: localStorage.getItem('cookie-consent-date'),
      id: localStorage.getItem('cookie-consent-id'),
    }));
    expect(stored.consent).toEqual({
      essential: true,
      analytics: true,
      marketing: false,
      personalization: false,
    });
    expect(Date.parse(stored.date ?? '')).toBeGreaterThan(Date.now() - 60_000);

    const db = stackDb(stack);
    await expect
      .poll(async () => (await db.scan('Submissions')).filter((item) => item.consentId === stored.id), {
        timeout: 10_000,
      })
      .toEqual([
        expect.objectContaining({
          kind: 'cookie_consent',
          analytics: true,
          marketing: false,
          personalization: false,
          revision: cookiePolicyRevision,
        }),
      ]);

    // The choice holds on the next page; Cookie settings in the footer brings the banner back.
    await page.goto(`${stack.web}/pricing`);
    await hydrated(page);
    expect(await banner.count()).toBe(0);
    await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' }).click();
    expect(await banner.getByRole('checkbox', { name: 'Analytics' }).isChecked()).toBe(true);
    await context.close();
  });

  it('shows with the first paint to a visitor who has not chosen, before any script, and never to one who has', async () => {
    const region = (page: Page) => page.getByRole('region', { name: 'Cookies on this site' });
    for (const [storage, shown] of [
      [undefined, true],
      [consented, false],
    ] as const) {
      const context = await visitor(storage ? { storage } : {});
      const page = await context.newPage();
      // No script file ever arrives: what shows is the prerendered HTML and the inline head script.
      await page.route('**/*.js', (route) => route.abort());
      await page.goto(`${stack.web}/pricing`, { waitUntil: 'load' });
      expect(await region(page).isVisible()).toBe(shown);
      if (shown) {
        for (const name of ['Accept all', 'Reject all', 'Customize']) {
          expect(await region(page).getByRole('button', { name }).isDisabled()).toBe(true);
        }
      }
      await context.close();
    }
  });

  it('never moves the page when it appears', async () => {
    const context = await visitor();
    const page = await context.newPage();
    await page.goto(`${stack.web}/`);
    const before = await page.getByRole('heading', { level: 1 }).boundingBox();
    await page.getByRole('region', { name: 'Cookies on this site' }).waitFor();
    const after = await page.getByRole('heading', { level: 1 }).boundingBox();
    expect(after).toEqual(before);
    const position = await page
      .locator('.cookie-banner')
      .evaluate((element) => getComputedStyle(element).position);
    expect(position).toBe('fixed');
    await context.close();
  });
});
