import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { themeScript } from '../../web/theme-script.ts';
import { webViteConfig } from '../../web/vite.config.ts';

const outDir = await mkdtemp(path.join(tmpdir(), 'web-build-'));
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe('web build', () => {
  it('inlines the exported theme script byte for byte and records its CSP hash', async () => {
    const config = webViteConfig();
    await build({ ...config, configFile: false, logLevel: 'silent', build: { ...config.build, outDir } });

    const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
    expect(inline).toEqual([themeScript]);
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);

    const hashes = JSON.parse(await readFile(path.join(outDir, 'csp-hashes.json'), 'utf8'));
    const expected = `'sha256-${createHash('sha256').update(themeScript).digest('base64')}'`;
    expect(hashes).toEqual({ 'script-src': [expected] });
  }, 60_000);
});
