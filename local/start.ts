import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { perIpWriteLimit as perIpWriteLimitRule } from '#lambdas/http/edge.ts';
import { auth0PlanFromEnv, type ManagementApiPlan } from './idp/rate-limit.ts';
import { portsFromEnv } from './ports.ts';
import { startStack } from './stack.ts';

// `npm start [-- --web=dist] [--in-memory]`: the whole product on loopback; Ctrl-C stops it all.
// `LOCAL_AUTH0_PLAN=free|self-service` sets the identity provider's Management API quota (ADR 0061).

const { values } = parseArgs({
  options: {
    web: { type: 'string', default: 'dev' },
    'in-memory': { type: 'boolean', default: false },
  },
});
if (values.web !== 'dev' && values.web !== 'dist') {
  console.error(`--web must be "dev" or "dist", got "${values.web}"`);
  process.exit(2);
}

// Auth0's Free plan unless told otherwise, so every local run meets the real constraint (ADR 0061).
let auth0Plan: ManagementApiPlan;
try {
  auth0Plan = auth0PlanFromEnv(process.env.LOCAL_AUTH0_PLAN);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}

// Lambda runs a current Node; the SDK's Node 20 notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const stateDir = resolve(process.env.LOCAL_STATE_DIR ?? '.local');
// The stack tests register many users from one address; they raise the per-IP limit with this.
const perIpWriteLimit = Number(process.env.LOCAL_PER_IP_WRITE_LIMIT ?? '') || undefined;
// The gateway logs a line per request and the handlers' Powertools loggers and metrics write theirs
// (an EMF line per invocation that counts something), and a pipe (how the tests and the bench run
// the stack) is written synchronously on Linux: everything this process writes to stdout is batched
// into one write every `flushMs`, so output does not cost each request a system call (under load a
// write per turn of the event loop still came to one every few requests).
const flushMs = 20;
const writeStdout = process.stdout.write.bind(process.stdout);
let pending: (string | Uint8Array)[] = [];
let written: ((error?: Error | null) => void)[] = [];
const flushLog = () => {
  if (pending.length === 0) return;
  const text = pending.every((chunk) => typeof chunk === 'string')
    ? pending.join('')
    : Buffer.concat(pending.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
  const callbacks = written;
  pending = [];
  written = [];
  writeStdout(text, (error) => {
    for (const callback of callbacks) callback(error);
  });
};
process.stdout.write = ((
  chunk: string | Uint8Array,
  encodingOrCallback?: BufferEncoding | ((error?: Error | null) => void),
  callback?: (error?: Error | null) => void,
): boolean => {
  if (pending.length === 0) setTimeout(flushLog, flushMs).unref();
  const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : 'utf8';
  pending.push(typeof chunk === 'string' && encoding !== 'utf8' ? Buffer.from(chunk, encoding) : chunk);
  const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
  if (done) written.push(done);
  return true;
}) as typeof process.stdout.write;
// process.exit() skips the pending turn: what was written so far still goes out.
process.on('exit', flushLog);
const log = (line: string) => {
  process.stdout.write(`${line}\n`);
};

console.log('Starting the local stack...');
let stack: Awaited<ReturnType<typeof startStack>>;
try {
  stack = await startStack({
    ports: portsFromEnv(),
    web: values.web,
    stateDir,
    inMemoryDb: values['in-memory'],
    auth0Plan,
    ...(perIpWriteLimit ? { perIpWriteLimit: { ...perIpWriteLimitRule, limit: perIpWriteLimit } } : {}),
    log,
  });
} catch (error) {
  flushLog();
  console.error('The local stack could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
}

const { info } = stack;
flushLog();
console.log(`
Ready. Open ${info.web}

  Web                ${info.web}
  API                ${info.web}/api/health  (through the web origin, as through CloudFront; the gateway at ${info.api} refuses direct calls)
  Identity provider  ${info.idp.issuer}  (Management API at Auth0's ${info.idp.managementApi.plan} plan: burst ${info.idp.managementApi.burst}, ${info.idp.managementApi.perSecond}/s; counts at ${info.idp.managementApi.statsUrl})
  Persona emulator   ${info.persona.url}
  Mailbox            ${info.ses.url}
  DynamoDB           ${info.dynamodb.endpoint}

Seeded accounts:
${info.accounts.map((a) => `  ${a.role.padEnd(5)}  ${a.email.padEnd(36)} ${a.password.padEnd(26)} ${a.organizationType}, KYC ${a.kycStatus}`).join('\n')}

Stack description: ${resolve(stateDir, 'stack.json')}
Press Ctrl-C to stop.`);
// At once, not in the next batch: whoever waits for stack.json (a developer, the stack tests)
// reads the banner right after it appears.
flushLog();

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping...`);
  await stack.close();
  flushLog();
  console.log('Stopped.');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
