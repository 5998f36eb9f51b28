import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cspHashesFile,
  type PlaceholderReport,
  parseCspHashes,
  placeholderReportFile,
  type SiteUrlRecord,
  scriptHashSource,
  siteUrlFile,
} from '../../web/build-contract.ts';
import { inlineScripts } from '../../web/inline-scripts.ts';

// What the infrastructure needs to know about a web build, read at synth time: where it is, the
// CSP hashes of its inline scripts and which routes it prerendered.

export const webDistDir = fileURLToPath(new URL('../../web/dist/', import.meta.url));
/**
 * Deployed when `web/dist` does not exist, only where that replaces nothing: a demo stage, or the
 * first deploy of a stage without a URL yet (a fresh clone and CI synthesize the `dev` demo). The
 * site construct refuses a missing build for any other stage (see `WebBuild.missing`).
 */
export const missingBuildDir = fileURLToPath(new URL('./missing-build/', import.meta.url));

export interface WebBuild {
  dir: string;
  /** CSP sources for the build's inline scripts (`'sha256-...'`). */
  scriptHashes: string[];
  /** Routes with their own prerendered `<route>/index.html`, e.g. `/pricing`. */
  prerenderedRoutes: string[];
  /** True when `dir` is the placeholder because no build was found. */
  missing: boolean;
  /**
   * The placeholder values the build let through (`npm run build:local`, a test build), from its
   * placeholders.json; undefined when the build has no such report (built before it existed, or
   * not by web/vite.config.ts), so nothing vouches for it.
   */
  placeholders: string[] | undefined;
  /**
   * The SITE_URL the build was made for, from its site-url.json; undefined when the build has no
   * such record (built before it existed, or not by web/vite.config.ts), so nothing vouches for it.
   */
  siteUrl: string | undefined;
}

function readScriptHashes(dir: string): string[] {
  const file = path.join(dir, cspHashesFile);
  if (!existsSync(file)) return inlineScripts.map(scriptHashSource);
  return parseCspHashes(readFileSync(file, 'utf8'), file);
}

function findPrerenderedRoutes(dir: string): string[] {
  const routes: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === 'assets') continue;
      const child = path.posix.join(relative, entry.name);
      if (existsSync(path.join(dir, child, 'index.html'))) routes.push(`/${child}`);
      walk(child);
    }
  };
  walk('');
  return routes.sort();
}

function readPlaceholders(dir: string): string[] | undefined {
  const file = path.join(dir, placeholderReportFile);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<PlaceholderReport>;
  if (!Array.isArray(parsed.placeholders) || !parsed.placeholders.every((p) => typeof p === 'string')) {
    throw new Error(`${file}: "placeholders" must be a list of strings`);
  }
  return parsed.placeholders;
}

function readSiteUrl(dir: string): string | undefined {
  const file = path.join(dir, siteUrlFile);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<SiteUrlRecord>;
  if (typeof parsed.siteUrl !== 'string') throw new Error(`${file}: "siteUrl" must be a string`);
  return parsed.siteUrl;
}

/** Reads the build in `dir` (default `web/dist`), or the placeholder when there is none. */
export function readWebBuild(dir: string = webDistDir): WebBuild {
  const missing = !existsSync(path.join(dir, 'index.html'));
  const buildDir = missing ? missingBuildDir : dir;
  return {
    dir: buildDir,
    scriptHashes: readScriptHashes(buildDir),
    prerenderedRoutes: findPrerenderedRoutes(buildDir),
    missing,
    placeholders: missing ? [] : readPlaceholders(buildDir),
    siteUrl: missing ? undefined : readSiteUrl(buildDir),
  };
}
