import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PlatformFunction } from '#infra/api/platform-function.ts';

// The deployed bundle is the one `npm run bench` measures (ADR 0063's figures): the AWS SDK inside
// it at the versions in package-lock.json, not the copy the Lambda runtime happens to carry.
// NodejsFunction leaves `@aws-sdk/*` out by default, so this bundles one real function.

describe('a PlatformFunction bundle', () => {
  it('carries the AWS SDK it imports instead of importing it from the runtime', () => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'bundle-'));
    onTestFinished(() => rmSync(outdir, { recursive: true, force: true }));
    const app = new App({ outdir });
    const stack = new Stack(app, 'BundleCheck', { env: { account: '111111111111', region: 'eu-central-1' } });
    new PlatformFunction(stack, 'GetMe', { handler: 'get-me', logRetention: RetentionDays.ONE_WEEK });
    app.synth();
    const assets = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
    expect(assets).toHaveLength(1);
    const bundle = readFileSync(path.join(outdir, assets[0] as string, 'index.mjs'), 'utf8');
    // A left-out SDK shows as an import of the package; a bundled one as its code.
    expect(bundle).not.toMatch(/from\s*["']@aws-sdk\//);
    expect(bundle).not.toMatch(/require\(["']@aws-sdk\//);
    expect(bundle).toContain('DynamoDB');
  }, 120_000);
});
