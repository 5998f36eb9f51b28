import { budgets, measureLambdaBundles } from './lambda-bundles.ts';

// `npm run bench`: measures the budgets the issues set and prints them against their limits.
// Exit code 1 when a budget is exceeded, so a CI job can gate on it if we choose to.

const figures = await measureLambdaBundles();
let failed = false;
console.log(
  'Lambda handler bundles (esbuild, minified, ESM, SDK bundled; import median of 7 cold processes)',
);
console.log(`${'handler'.padEnd(32)}${'size KB'.padStart(10)}${'import ms'.padStart(12)}`);
for (const figure of figures) {
  const overSize = figure.bytes > budgets.bundleBytes;
  const overTime = figure.importMedianMs > budgets.importMs;
  failed ||= overSize || overTime;
  console.log(
    `${figure.handler.padEnd(32)}${(figure.bytes / 1000).toFixed(1).padStart(10)}${overSize ? '!' : ' '}${figure.importMedianMs.toFixed(1).padStart(11)}${overTime ? '!' : ' '}`,
  );
}
console.log(
  `budgets: ${budgets.bundleBytes / 1000} KB, ${budgets.importMs} ms median import${failed ? '  -- EXCEEDED (!)' : '  -- all within'}`,
);
process.exitCode = failed ? 1 : 0;
