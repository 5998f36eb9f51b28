import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { initialChunks } from '#scripts/bench/web.ts';

const dist = 'web/dist';
for (const [locale, mf, page, html] of [
  ['en', '.vite/manifest.json', 'register', 'register/index.html'],
  ['de', '.vite/manifest.de.json', 'register', 'de/register/index.html'],
] as const) {
  const manifest = JSON.parse(await readFile(`${dist}/${mf}`, 'utf8'));
  const modules = JSON.parse(
    await readFile(`${dist}/.vite/chunk-modules${locale === 'en' ? '' : '.de'}.json`, 'utf8'),
  );
  const h = await readFile(`${dist}/${html}`, 'utf8');
  const entries = [...h.matchAll(/<script data-entry="\/([^"]+)"/g)].map((m) => m[1] ?? '');
  const chunks = initialChunks(manifest, entries, page);
  const sizes = [];
  for (const f of chunks)
    sizes.push([
      f,
      gzipSync(await readFile(`${dist}/${f}`), { level: 9 }).length,
      (modules[f] ?? []).map((x: string) => x.split('/').slice(-2).join('/')).join(','),
    ]);
  console.log(
    locale,
    sizes
      .filter(([f]) => !/framework|router|boot|index-/.test(String(f)))
      .map(([f, s, m]) => `${String(f).replace('assets/', '')}:${s} [${m}]`)
      .join('\n '),
  );
}
