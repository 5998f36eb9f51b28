import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { VALIDATE_AGAINST_DEFAULT_RULES } from 'aws-cdk-lib/cx-api';
import type * as z from 'zod';
import { buildPlatform } from '#infra/platform.ts';
import { readWebBuild } from '#infra/site/web-build.ts';
import { exampleStages, parseStageConfig, type stageConfig } from '#infra/stage-config.ts';

// Synthesis for the infra tests: bundling skipped, and a small fixed web build (two prerendered
// routes, one chunk, no csp-hashes.json) so results never depend on whether `npm run build` ran.
// As in cdk.json, a template CloudFormation Validate finds an error in fails the synth (ADR 0069).

/** The context every test app starts from: what cdk.json sets for validation. */
export const validationContext = { [VALIDATE_AGAINST_DEFAULT_RULES]: true };

export const fixtureBuildDir = fileURLToPath(new URL('./fixtures/web-dist/', import.meta.url));

/** A stage with every optional part: a custom domain, its own WAF ACL (so no edge stack), an alarm email. */
export const withEverything = {
  siteUrl: 'https://app.platform.example',
  domainName: 'app.platform.example',
  certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/12345678-1234-1234-1234-123456789012',
  webAclArn:
    'arn:aws:wafv2:us-east-1:111111111111:global/webacl/platform/12345678-1234-1234-1234-123456789012',
  alarmEmail: 'oncall@platform.example',
} satisfies Partial<z.input<typeof stageConfig>>;

export function synthPlatform(
  overrides: Partial<z.input<typeof stageConfig>> = {},
  options: { originSecretVersionId?: string; buildDir?: string } = {},
) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...validationContext } });
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
