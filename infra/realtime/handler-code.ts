import { buildSync } from 'esbuild';

// Bundles a channel namespace's handlers the way AppSync's APPSYNC_JS runtime takes them: one ES
// module, `@aws-appsync/utils` left as an import (the runtime provides it), the rule from
// lambdas/contracts inlined. No CDK import, so the local emulator runs the same bundle, with a
// stand-in for `@aws-appsync/utils` (`utilsModule`).

const entry = new URL('./kyc-decisions-handlers.ts', import.meta.url).pathname;

export function kycDecisionsHandlerCode(options: { utilsModule?: string } = {}): string {
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    // AppSync's docs: keep the code readable (its errors point at lines), no source map needed.
    minify: false,
    legalComments: 'none',
    ...(options.utilsModule
      ? { alias: { '@aws-appsync/utils': options.utilsModule } }
      : { external: ['@aws-appsync/utils'] }),
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output for the channel handlers');
  return file.text;
}
