import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPaths, redirects } from '#web/app/paths.ts';
import { entryLoaderScript, headScript } from '../../web/inline-scripts.ts';
import {
  findPlaceholders,
  PlaceholderContentError,
  placeholdersAllowed,
} from '../../web/scripts/placeholders.ts';
import { webViteConfig } from '../../web/vite.config.ts';

const outDir = await mkdtemp(path.join(tmpdir(), 'web-build-'));
const page = (urlPath: string) =>
  readFile(path.join(outDir, urlPath === '/' ? 'index.html' : `${urlPath.slice(1)}/index.html`), 'utf8');

beforeAll(async () => {
  const config = webViteConfig();
  await build({ ...config, configFile: false, logLevel: 'silent', build: { ...config.build, outDir } });
}, 120_000);
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

  it.each(publicPaths.map((entry) => entry.path))(
    'prerenders %s with its content, one title, description and canonical, and nothing to fetch but its CSS',
    async (urlPath) => {
      const html = await page(urlPath);
      const root = html.slice(html.indexOf('<div id="root">'));
      expect(root).toMatch(/<h1[^>]*>[^<]+/);
      expect(root).toContain('<nav');
      expect(html).toContain(`data-prerendered="${urlPath}"`);
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html.match(/<meta name="description" content="[^"]{20,}"/g)).toHaveLength(1);
      const canonical = urlPath === '/' ? 'https://platform.example/' : `https://platform.example${urlPath}`;
      expect(html).toContain(`<link rel="canonical" href="${canonical}"/>`);
      expect(html).toContain(`<meta property="og:url" content="${canonical}"/>`);
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
        .filter(([, rel, href]) => rel !== 'canonical' && !href?.startsWith('data:'))
        .map(([, rel]) => rel);
      expect(new Set(fetched)).toEqual(new Set(['stylesheet']));
      expect(html).toContain('<link rel="icon" href="data:image/svg+xml,');
    },
  );

  it('marks the German legal pages as German and the others as English', async () => {
    for (const urlPath of ['/privacy-policy', '/terms-and-conditions', '/acceptable-use-policy']) {
      expect(await page(urlPath)).toMatch(/^<!doctype html>\s*<html lang="de"/);
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

  it('lists every public page in sitemap.xml and keeps app routes out of robots', async () => {
    const sitemap = await readFile(path.join(outDir, 'sitemap.xml'), 'utf8');
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual(
      publicPaths.map((entry) => `https://platform.example${entry.path === '/' ? '/' : entry.path}`),
    );
    const robots = await readFile(path.join(outDir, 'robots.txt'), 'utf8');
    expect(robots).toContain('Sitemap: https://platform.example/sitemap.xml');
    expect(robots).toContain('Disallow: /dashboard');
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
});
