import { main } from './audit-consents/run.ts';

// `npm run audit:consents -- --purpose P --from D --to D [--user U] [--format csv|json] [--out FILE]`
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
