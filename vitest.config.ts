import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs nothing running; `stack` starts the whole local stack once
// (tests/helpers/stack-setup.ts) on the test ports and shares it through `inject('stack')`.
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.{ts,tsx}'],
          // Synthesizing a stack or bundling takes seconds on this shared 2-core machine; a hang
          // still fails, just later.
          testTimeout: 30_000,
          exclude: ['tests/**/*.stack.test.{ts,tsx}', '**/node_modules/**'],
          environment: 'node',
          // Temporary files (CDK's synthesized assemblies above all) in one folder, removed after.
          globalSetup: ['tests/helpers/temp-dir-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: ['tests/**/*.stack.test.{ts,tsx}'],
          globalSetup: ['tests/helpers/stack-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
