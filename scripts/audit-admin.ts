import { main } from './audit-admin/run.ts';

// `npm run audit:admin -- --from D --to D [--format csv|json] [--out FILE]` (ADR 0078)
// Operators may run this on Node 20; the SDK's notice about Node 22 is noise in an export.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
