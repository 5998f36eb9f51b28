import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../../web/scripts/build.ts';

// `npm run build` (web/scripts/build.ts) builds beside its output and moves the result into place
// only when the whole build succeeded: a failed build leaves the previous build as it was.

const parent = await mkdtemp(path.join(tmpdir(), 'web-build-staged-'));
afterAll(() => rm(parent, { recursive: true, force: true }));

describe('the web build', () => {
  it('leaves the previous build untouched when it fails, and no staging folder behind', async () => {
    const outDir = path.join(parent, 'dist');
    // The previous build: a complete one, as the site construct reads it.
    await buildPrevious(outDir);
    const before = await snapshot(outDir);
    // A production build (no placeholders allowed) without SITE_URL: the client bundle is written,
    // then the prerender refuses it.
    const { VITEST: _vitest, ALLOW_PLACEHOLDER_CONTENT: _allow, SITE_URL: _siteUrl, ...env } = process.env;
    await expect(
      buildWeb({
        outDir,
        env: { ...env, NODE_ENV: 'production' },
        viteArgs: ['--logLevel', 'error'],
        quiet: true,
      }),
    ).rejects.toThrow(/SITE_URL/);
    expect(await snapshot(outDir)).toEqual(before);
    expect(await readdir(parent)).toEqual(['dist']);
  }, 180_000);
});

async function buildPrevious(dir: string): Promise<void> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>previous</title>');
  await writeFile(path.join(dir, 'placeholders.json'), '{ "placeholders": [] }\n');
  await writeFile(path.join(dir, 'site-url.json'), '{ "siteUrl": "https://platform.example.org" }\n');
  await writeFile(path.join(dir, 'assets', 'app-previous.js'), 'console.log("previous")');
}

async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (relative: string) => {
    for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) await walk(child);
      else files[child] = await readFile(path.join(dir, child), 'utf8');
    }
  };
  if (existsSync(dir)) await walk('');
  return files;
}
