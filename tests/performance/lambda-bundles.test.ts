import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLambdaBundles, handlerNames, lambdaBudgets } from '#scripts/bench/lambda-bundles.ts';

// Issue 13's size budget of every Lambda function, as deployed: the bundle `PlatformFunction`
// builds (esbuild, minified, ESM, AWS SDK bundled) is at most 450 KB. Import times are measured by
// `npm run bench`, never here.

const outDir = await mkdtemp(join(tmpdir(), 'lambda-bundles-'));
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe('Lambda bundles', () => {
  it('every handler of routes.ts and event-rules.ts bundles to at most 450 KB', {
    timeout: 180_000,
  }, async () => {
    const built = await buildLambdaBundles(outDir);
    expect(built.map((bundle) => bundle.handler).sort()).toEqual(handlerNames().sort());
    const over = built
      .filter((bundle) => bundle.bytes > lambdaBudgets.bundleBytes)
      .map((bundle) => `${bundle.handler}: ${(bundle.bytes / 1000).toFixed(1)} KB`);
    expect(over).toEqual([]);
  });
});
