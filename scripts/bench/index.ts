import { budgets, measureLambdaBundles } from './lambda-bundles.ts';
import { measureWebhookAck, webhookBudgetMs } from './webhook-ack.ts';

// `npm run bench`: measures the budgets the issues set and prints them against their limits.
// Exit code 1 when a budget is exceeded, so a CI job can gate on it if we choose to.

let failed = false;

const figures = await measureLambdaBundles();
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
console.log(`budgets: ${budgets.bundleBytes / 1000} KB, ${budgets.importMs} ms median import`);

if (!process.argv.includes('--no-stack')) {
  const webhook = await measureWebhookAck();
  failed ||= webhook.newEventMedianMs > webhookBudgetMs;
  console.log(
    `\nPersona webhook acknowledgement through the local gateway (median of ${webhook.samples}):\n` +
      `  new event (state transition): ${webhook.newEventMedianMs.toFixed(2)} ms` +
      `${webhook.newEventMedianMs > webhookBudgetMs ? ' !' : ''}\n` +
      `  duplicate event:              ${webhook.duplicateMedianMs.toFixed(2)} ms\n` +
      `  reference, GET /api/health:   ${webhook.healthMedianMs.toFixed(2)} ms\n` +
      `budget: ${webhookBudgetMs} ms median`,
  );
}
console.log(failed ? '\nSome budgets are exceeded (!).' : '\nEvery budget holds.');
process.exitCode = failed ? 1 : 0;
