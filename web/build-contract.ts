// What a web build leaves next to index.html for whoever serves it: the CDK site construct
// (infra/site/web-build.ts) and the local dist server (local/web/index.ts) read these files by
// these names. Build-time only: the client bundle never imports this module.
import { createHash } from 'node:crypto';

/** `{ "script-src": ["'sha256-...'"] }`: the CSP sources that allow the build's inline scripts. */
export const cspHashesFile = 'csp-hashes.json';

/** The sources a build's csp-hashes.json lists; throws unless they are all hash sources. */
export function parseCspHashes(text: string, file: string): string[] {
  const parsed = JSON.parse(text) as { 'script-src'?: unknown };
  const hashes = parsed['script-src'];
  if (
    !Array.isArray(hashes) ||
    !hashes.every((h) => typeof h === 'string' && /^'sha(256|384|512)-/.test(h))
  ) {
    throw new Error(`${file}: "script-src" must be a list of 'sha256-...' sources`);
  }
  return hashes;
}

/** The CSP source expression that allows exactly this inline script. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/**
 * `{ "placeholders": [...] }`, written by every build: the placeholder values a local or test
 * build let through (empty for a production build). The site construct reads it, so a local
 * build cannot be deployed to a stage that is not a demo.
 */
export const placeholderReportFile = 'placeholders.json';
export interface PlaceholderReport {
  placeholders: string[];
}

/**
 * `{ "siteUrl": "https://..." }`, written by every build: the origin (SITE_URL) its canonical URLs,
 * sitemap and robots.txt name. The site construct refuses a build made for another URL than the
 * stage's `siteUrl`, so a staging build cannot go to production unnoticed.
 */
export const siteUrlFile = 'site-url.json';
export interface SiteUrlRecord {
  siteUrl: string;
}
