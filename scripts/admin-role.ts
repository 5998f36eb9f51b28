import { main } from './admin-role/run.ts';

// `npm run admin:role -- (--stage S | --stack .local/stack.json) --user 'auth0|...' --role admin|user --reason "..."`
// Changes someone's role in Auth0 and appends it to the admin audit trail (ADR 0078).
// Operators may run this on Node 20; the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
