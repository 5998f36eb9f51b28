import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type * as z from 'zod';
import { buildPlatform } from '#infra/platform.ts';
import { readWebBuild } from '#infra/site/web-build.ts';
import { exampleStages, parseStageConfig, type stageConfig } from '#infra/stage-config.ts';

// Synthesis for the infra tests: bundling skipped, and a small fixed web build (two prerendered
// routes, one chunk, no csp-hashes.json) so results never depend on whether `npm run build` ran.

export const fixtureBuildDir = fileURLToPath(new URL('./fixtures/web-dist/', import.meta.url));

export function synthPlatform(
  overrides: Partial<z.input<typeof stageConfig>> = {},
  options: { originSecretVersionId?: string; buildDir?: string } = {},
) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const config = parseStageConfig({ ...exampleStages.dev, ...overrides });
  const { buildDir = fixtureBuildDir, ...platformOptions } = options;
  const stacks = buildPlatform(
    app,
    config,
    { region: 'eu-central-1', account: '111111111111' },
    { webBuild: readWebBuild(buildDir), ...platformOptions },
  );
  return {
    app,
    config,
    stacks,
    data: Template.fromStack(stacks.data),
    backend: Template.fromStack(stacks.backend),
    site: Template.fromStack(stacks.site),
  };
}
