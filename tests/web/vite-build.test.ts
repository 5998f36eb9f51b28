import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWebBuild } from '#infra/site/web-build.ts';
import { appPaths, publicPaths, redirects } from '#web/config/paths.ts';
import { localizedPublicPaths } from '#web/config/site-paths.ts';
import { notFound } from '#web/content/pages/not-found.ts';
import { site } from '#web/content/site.ts';
import { placeholderReportFile, siteUrlFile } from '../../web/build-contract.ts';
import { entryLoaderScript, headScript } from '../../web/inline-scripts.ts';
import { auth0TokenWorkerMarker, removedWorkerSource } from '../../web/scripts/auth0-token-worker.ts';
import { buildWeb } from '../../web/scripts/build.ts';
import {
  checkSiteUrl,
  findPlaceholders,
  isReservedHost,
  isValidIban,
  PlaceholderContentError,
  placeholdersAllowed,
  SiteUrlError,
} from '../../web/scripts/placeholders.ts';
import { notFoundPrerendered } from '../../web/scripts/prerender.ts';
import { defaultSiteUrl } from '../../web/src/lib/site-url.ts';

const outDir = await mkdtemp(path.join(tmpdir(), 'web-build-'));
const page = (urlPath: string) =>
  readFile(path.join(outDir, urlPath === '/' ? 'index.html' : `${urlPath.slice(1)}/index.html`), 'utf8');

// The whole site as `npm run build` makes it: the English build with the German one merged in (ADR 0089).
beforeAll(async () => {
  await buildWeb({
    outDir,
    env: { ...process.env, NODE_ENV: 'production', ALLOW_PLACEHOLDER_CONTENT: '1' },
    viteArgs: ['--logLevel', 'silent'],
    quiet: true,
  });
}, 180_000);
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe('web build', () => {
  it('inlines the head script and the entry loader byte for byte and records their CSP hashes', async () => {
    const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const inline = [...html.matchAll(/<script(?: data-entry="[^"]+")?>([\s\S]*?)<\/script>/g)].map(
      (match) => match[1],
    );
    expect(inline).toEqual([headScript, entryLoaderScript]);
    expect(html).toMatch(/<script data-entry="\/assets\/index-[\w-]+\.js">/);

    const hashes = JSON.parse(await readFile(path.join(outDir, 'csp-hashes.json'), 'utf8'));
    const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    expect(hashes).toEqual({ 'script-src': [hash(headScript), hash(entryLoaderScript)] });
  });

  it.each(localizedPublicPaths.map((entry) => [entry.path, entry] as const))(
    'prerenders %s with its content, one title, description and canonical, and nothing to fetch but its CSS',
    async (urlPath, entry) => {
      const html = await page(urlPath);
      expect(html).toMatch(new RegExp(`^<!doctype html>\\s*<html lang="${entry.locale}"`));
      const root = html.slice(html.indexOf('<div id="root">'));
      expect(root).toMatch(/<h1[^>]*>[^<]+/);
      expect(root).toContain('<nav');
      expect(html).toContain(`data-prerendered="${urlPath}"`);
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html.match(/<meta name="description" content="[^"]{20,}"/g)).toHaveLength(1);
      const canonical = urlPath === '/' ? 'https://platform.example/' : `https://platform.example${urlPath}`;
      if (entry.indexed) {
        expect(html).toContain(`<link rel="canonical" href="${canonical}"/>`);
        expect(html).toContain(`<meta property="og:url" content="${canonical}"/>`);
        // Its versions in both languages, English the default.
        const english = `https://platform.example${entry.basePath}`;
        const german = `https://platform.example${entry.basePath === '/' ? '/de' : `/de${entry.basePath}`}`;
        expect(html).toContain(`<link rel="alternate" hrefLang="en" href="${english}"/>`);
        expect(html).toContain(`<link rel="alternate" hrefLang="de" href="${german}"/>`);
        expect(html).toContain(`<link rel="alternate" hrefLang="x-default" href="${english}"/>`);
      } else {
        // Journey pages such as /check-your-email stay out of search engines and name no canonical.
        expect(html).toContain('<meta name="robots" content="noindex');
        expect(html).not.toContain('rel="canonical"');
      }
      const inline = [...html.matchAll(/<script(?: data-entry="[^"]+")?>([\s\S]*?)<\/script>/g)].map(
        (match) => match[1],
      );
      expect(inline).toEqual([headScript, entryLoaderScript]);
      // The entry loader comes after the content. Nothing is fetched up front but the page's CSS:
      // no script by URL, no preload, and the favicon is a data URL.
      expect(html.indexOf('<script data-entry=')).toBeGreaterThan(html.indexOf('</footer>'));
      expect(html).not.toMatch(/<script[^>]* src=/);
      expect(html).not.toContain('modulepreload');
      const fetched = [...html.matchAll(/<link rel="([^"]+)"[^>]* href="([^"]+)"/g)]
        .filter(([, rel, href]) => rel !== 'canonical' && rel !== 'alternate' && !href?.startsWith('data:'))
        .map(([, rel]) => rel);
      expect(new Set(fetched)).toEqual(new Set(['stylesheet']));
      expect(html).toContain('<link rel="icon" href="data:image/svg+xml,');
    },
  );

  it('marks the English build’s pages as English, the legal pages linking to their binding German versions', async () => {
    for (const urlPath of ['/privacy-policy', '/terms-and-conditions', '/acceptable-use-policy']) {
      const html = await page(urlPath);
      expect(html).toMatch(/^<!doctype html>\s*<html lang="en"/);
      expect(html).toContain(`<a href="/de${urlPath}" hrefLang="de" lang="de">`);
    }
    for (const urlPath of ['/', '/pricing', '/impressum']) {
      expect(await page(urlPath)).toMatch(/^<!doctype html>\s*<html lang="en"/);
    }
  });

  it('leaves a refresh page with a canonical link behind each old short URL', async () => {
    for (const [from, to] of Object.entries(redirects)) {
      const html = await page(from);
      expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${to}" />`);
      expect(html).toContain(`<link rel="canonical" href="https://platform.example${to}" />`);
    }
  });

  it('lists every indexed public page in sitemap.xml and keeps app routes out of robots', async () => {
    const sitemap = await readFile(path.join(outDir, 'sitemap.xml'), 'utf8');
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual(
      localizedPublicPaths
        .filter((entry) => entry.indexed)
        .map((entry) => `https://platform.example${entry.path === '/' ? '/' : entry.path}`),
    );
    expect(locs).toContain('https://platform.example/de/pricing');
    expect(sitemap).toContain(
      '<url><loc>https://platform.example/de/pricing</loc><xhtml:link rel="alternate" hreflang="en" href="https://platform.example/pricing"/><xhtml:link rel="alternate" hreflang="de" href="https://platform.example/de/pricing"/><xhtml:link rel="alternate" hreflang="x-default" href="https://platform.example/pricing"/></url>',
    );
    expect(locs).not.toContain('https://platform.example/check-your-email');
    const robots = await readFile(path.join(outDir, 'robots.txt'), 'utf8');
    expect(robots).toContain('Sitemap: https://platform.example/sitemap.xml');
    const disallowed = [...robots.matchAll(/^Disallow: (.+)$/gm)].map((match) => match[1] ?? '');
    expect(disallowed).toEqual(appPaths);
    // Every public page stays crawlable, the noindex ones too, or crawlers could not see the noindex.
    for (const page of publicPaths) {
      expect(
        disallowed.filter((prefix) => page.path.startsWith(prefix)),
        page.path,
      ).toEqual([]);
    }
  });

  it('prerenders the not-found page as 404.html, made for any unknown path and kept out of search', async () => {
    const html = await readFile(path.join(outDir, '404.html'), 'utf8');
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(notFoundPrerendered).toBe('');
    expect(html).toContain(`<html lang="en" data-prerendered="${notFoundPrerendered}">`);
    expect(root).toContain(`>${notFound.title}</h1>`);
    expect(root).toContain('aria-label="Main"');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain('rel="canonical"');
    const inline = [...html.matchAll(/<script(?: data-entry="[^"]+")?>([\s\S]*?)<\/script>/g)].map(
      (match) => match[1],
    );
    expect(inline).toEqual([headScript, entryLoaderScript]);
  });

  it('merges the German build: its pages under /de, its not-found page, and its entry on the app shell', async () => {
    const english = await page('/');
    const german = await page('/de');
    const h1 = (html: string) => html.match(/<h1[^>]*>([^<]+)/)?.[1];
    expect(h1(german)).toBeTruthy();
    expect(h1(german)).not.toEqual(h1(english));
    expect(german).toContain('data-prerendered="/de"');
    // The German page's links stay in German; the switch leads to the English version.
    expect(german).toContain('href="/de/pricing"');
    expect(german).toContain('<a class="site-nav__language" href="/?locale=en" hrefLang="en" lang="en"');
    expect(english).toContain('<a class="site-nav__language" href="/de?locale=de" hrefLang="de" lang="de"');
    const germanEntry = german.match(/<script data-entry="([^"]+)">/)?.[1];
    const englishEntry = english.match(/<script data-entry="([^"]+)">/)?.[1];
    expect(germanEntry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    expect(germanEntry).not.toEqual(englishEntry);
    await expect(readFile(path.join(outDir, germanEntry?.slice(1) ?? ''), 'utf8')).resolves.toBeTruthy();
    const shell = await readFile(path.join(outDir, 'app.html'), 'utf8');
    expect(shell).toContain(`<script data-entry="${englishEntry}" data-entry-de="${germanEntry}">`);
    const notFoundDe = await readFile(path.join(outDir, 'de', '404.html'), 'utf8');
    expect(notFoundDe).toMatch(/^<!doctype html>\s*<html lang="de" data-prerendered="">/);
    const prerendered = JSON.parse(await readFile(path.join(outDir, 'prerendered.json'), 'utf8')) as {
      path: string;
      lang: string;
    }[];
    expect(prerendered.map((entry) => [entry.path, entry.lang])).toEqual(
      localizedPublicPaths.map((entry) => [entry.path, entry.locale]),
    );
  });

  it('writes the app shell as app.html: the layout and a pending main, no page content, noindex', async () => {
    const html = await readFile(path.join(outDir, 'app.html'), 'utf8');
    const home = await page('/');
    const root = html.slice(html.indexOf('<div id="root">'));
    // No data-prerendered: boot.tsx renders the app route afresh, the entry loader starts at once.
    expect(html).toMatch(/<html lang="en">/);
    expect(html).not.toContain('data-prerendered');
    expect(root).toContain('aria-label="Main"');
    expect(root).toContain('<footer');
    expect(root).toMatch(
      new RegExp(
        `<main[^>]*><p class="container app-shell-pending" role="status">${site.nav.loading}</p></main>`,
      ),
    );
    expect(root).not.toContain('<h1');
    expect(html).toContain(`<title>${site.productName}</title>`);
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain('rel="canonical"');
    // The same stylesheets as every page, and nothing of the home page's own.
    const sheets = (doc: string) =>
      [...doc.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
    expect(sheets(home)).toEqual(expect.arrayContaining(sheets(html)));
    const inline = [
      ...html.matchAll(/<script(?: data-entry="[^"]+" data-entry-de="[^"]+")?>([\s\S]*?)<\/script>/g),
    ].map((match) => match[1]);
    expect(inline).toEqual([headScript, entryLoaderScript]);
  });

  it('ships auth0-spa-js without its inline token worker (about 4 KiB of gzip the local-storage cache never runs)', async () => {
    const assets = path.join(outDir, 'assets');
    const scripts = (await readdir(assets)).filter((file) => file.endsWith('.js'));
    const workers: string[] = [];
    for (const file of scripts) {
      const code = await readFile(path.join(assets, file), 'utf8');
      workers.push(...(code.match(new RegExp(`${auth0TokenWorkerMarker}[A-Za-z0-9+/=]+`, 'g')) ?? []));
    }
    // One copy per language's build (each has its own auth0 chunk: it links to that language's pages).
    expect(workers.map((base64) => Buffer.from(base64, 'base64').toString('utf8'))).toEqual([
      removedWorkerSource,
      removedWorkerSource,
    ]);
  });
});

describe('placeholder content', () => {
  it('names every placeholder value with its key', () => {
    expect(
      findPlaceholders({ name: 'Acme GmbH', bank: { iban: 'DE00 [IBAN]', bic: 'TODO' }, people: ['XXX'] }),
    ).toEqual(['bank.iban: "DE00 [IBAN]"', 'bank.bic: "TODO"', 'people[0]: "XXX"']);
    expect(findPlaceholders({ name: 'Acme GmbH', iban: 'DE89 3704 0044 0532 0130 00' })).toEqual([]);
  });

  it('refuses a production build with placeholders unless a local or test build opts out', () => {
    expect(placeholdersAllowed({})).toBe(false);
    expect(placeholdersAllowed({ ALLOW_PLACEHOLDER_CONTENT: '1' })).toBe(true);
    expect(placeholdersAllowed({ VITEST: 'true' })).toBe(true);
    expect(new PlaceholderContentError('company.ts', ['iban: "[IBAN]"']).message).toMatch(
      /must not ship[\s\S]*iban[\s\S]*ALLOW_PLACEHOLDER_CONTENT=1/,
    );
  });

  it('flags email addresses and URLs on reserved example domains, subdomains and any case included', () => {
    for (const host of [
      'platform.example',
      'example.com',
      'mail.example.org',
      'EXAMPLE.NET',
      'a.b.test',
      'x.invalid',
      'localhost',
      'app.localhost',
    ]) {
      expect(isReservedHost(host), host).toBe(true);
    }
    for (const host of [
      'acme.de',
      'example.de',
      'myexample.com',
      'example.company',
      'testing.io',
      'contest.com',
    ]) {
      expect(isReservedHost(host), host).toBe(false);
    }
    const found = findPlaceholders({
      email: 'contact@platform.example',
      careersEmail: 'Jobs@Careers.EXAMPLE.COM',
      site: 'https://www.example.org/jobs',
      apply: 'mailto:hr@acme.test?subject=Apply',
      local: 'http://localhost:5173',
    });
    expect(found).toHaveLength(5);
    expect(found[0]).toMatch(
      /^email: "contact@platform\.example" \(reserved example domain platform\.example\b/,
    );
    expect(found[1]).toMatch(/^careersEmail: .*reserved example domain Careers\.EXAMPLE\.COM\b/);
    expect(found[2]).toMatch(/^site: .*reserved example domain www\.example\.org\b/);
    expect(found[3]).toMatch(/^apply: .*reserved example domain acme\.test\b/);
    expect(found[4]).toMatch(/^local: .*reserved example domain localhost\b/);
  });

  it('lets real business addresses through, whatever their local part says', () => {
    expect(
      findPlaceholders({
        email: 'contact@acme-platform.de',
        careersEmail: 'jobs.test@acme-platform.de',
        site: 'https://www.acme-platform.de/impressum',
        court: 'Amtsgericht Berlin-Charlottenburg',
        number: 'HRB 123456 B',
        vatId: 'DE123456789',
        bic: 'DEUTDEFFXXX',
        phone: '+49 30 1234567',
      }),
    ).toEqual([]);
  });

  it('checks IBANs by their mod-97 checksum', () => {
    for (const iban of [
      'DE89 3704 0044 0532 0130 00',
      'GB82 WEST 1234 5698 7654 32',
      'NL91ABNA0417164300',
      'de89370400440532013000',
    ]) {
      expect(isValidIban(iban), iban).toBe(true);
    }
    for (const iban of [
      'DE00 0000 0000 0000 0000 00',
      'DE88 3704 0044 0532 0130 00',
      'GB82 WEST 1234 5698 7654 33',
      'DE89 3704',
      '',
    ]) {
      expect(isValidIban(iban), iban).toBe(false);
    }
    expect(findPlaceholders({ banking: { iban: 'DE00 0000 0000 0000 0000 00' } })).toEqual([
      'banking.iban: "DE00 0000 0000 0000 0000 00" (not a valid IBAN: its check digits fail the mod-97 test)',
    ]);
    // Under any key, a value written like an IBAN is checked too; under an `iban` key, any value.
    expect(findPlaceholders({ account: 'DE88 3704 0044 0532 0130 00', iban: '12345' })).toEqual([
      'account: "DE88 3704 0044 0532 0130 00" (not a valid IBAN: its check digits fail the mod-97 test)',
      'iban: "12345" (not a valid IBAN: its check digits fail the mod-97 test)',
    ]);
    expect(findPlaceholders({ iban: 'GB82 WEST 1234 5698 7654 32' })).toEqual([]);
  });

  it('flags empty values, long XXX runs and email fields that hold no address', () => {
    expect(
      findPlaceholders({ phone: '', number: 'HRB XXXXX', email: 'contact', careersEmail: 'careers@acme.de' }),
    ).toEqual(['phone: "" (empty)', 'number: "HRB XXXXX"', 'email: "contact" (not an email address)']);
  });

  it('lists what a local or test build let through in placeholders.json, which the site construct reads', async () => {
    const { company } = await import('#web/content/company.ts');
    const report = JSON.parse(await readFile(path.join(outDir, placeholderReportFile), 'utf8'));
    expect(report.placeholders).toEqual(
      expect.arrayContaining([...findPlaceholders(company, 'company'), expect.stringMatching(/^SITE_URL /)]),
    );
    expect(readWebBuild(outDir).placeholders).toEqual(report.placeholders);
  });

  it('records the SITE_URL it was built for in site-url.json, which the site construct holds to the stage', async () => {
    const record = JSON.parse(await readFile(path.join(outDir, siteUrlFile), 'utf8'));
    expect(record).toEqual({ siteUrl: defaultSiteUrl });
    expect(readWebBuild(outDir).siteUrl).toBe(defaultSiteUrl);
  });

  it('names each .example address of the company content (email, careersEmail) by its field', async () => {
    const { company } = await import('#web/content/company.ts');
    const found = findPlaceholders(company, 'company');
    for (const [key, value] of Object.entries(company)) {
      if (typeof value === 'string' && /@[\w.-]+\.example$/.test(value)) {
        expect(found).toContainEqual(
          expect.stringMatching(new RegExp(`^company\\.${key}: .*reserved example domain`)),
        );
      }
    }
  });

  it('refuses a production build whose SITE_URL is unset, an example origin or not an https origin', () => {
    expect(checkSiteUrl('https://acme-platform.de')).toBeUndefined();
    expect(checkSiteUrl('https://app.acme-platform.de:8443')).toBeUndefined();
    expect(checkSiteUrl(defaultSiteUrl)).toEqual({
      problem: expect.stringMatching(/^is not set/),
      placeholder: true,
    });
    for (const url of [
      'https://www.example.com',
      'https://staging.platform.example',
      'http://localhost:4173',
      'https://site.test',
    ]) {
      expect(checkSiteUrl(url), url).toEqual({
        problem: expect.stringMatching(/reserved example host/),
        placeholder: true,
      });
    }
    expect(checkSiteUrl('http://acme-platform.de')).toEqual({
      problem: expect.stringMatching(/not https/),
      placeholder: true,
    });
    for (const url of [
      'https://acme-platform.de/site',
      'https://acme-platform.de/?a=1',
      'https://acme-platform.de#x',
      'https://user@acme-platform.de',
      'HTTPS://ACME-PLATFORM.DE',
      'ftp://acme-platform.de',
      'acme-platform.de',
    ]) {
      expect(checkSiteUrl(url)?.placeholder, url).toBe(false);
    }
    const unset = checkSiteUrl(defaultSiteUrl);
    expect(unset && new SiteUrlError(unset).message).toMatch(
      /^SITE_URL is not set[\s\S]*must not ship[\s\S]*SITE_URL=https:\/\/your\.domain, or ALLOW_PLACEHOLDER_CONTENT=1 for a local or test build/,
    );
    const withPath = checkSiteUrl('https://acme-platform.de/site');
    expect(withPath && new SiteUrlError(withPath).message).not.toContain('ALLOW_PLACEHOLDER_CONTENT');
  });
});
