import { Worker } from 'node:worker_threads';
import type { IdpOptions, RunningIdp } from './index.ts';

// The local identity provider on a thread of its own, as Auth0 runs apart from the functions.
// oidc-provider keeps each request's context in an AsyncLocalStorage; once one has run, Node calls
// its promise hooks for every promise of the thread. Sharing the gateway's thread, the first sign-in
// made every API request and every SDK call after it cost 10-20% more CPU (ADR 0055). The thread
// speaks to the rest of the stack only over HTTP, as before.

type FromThread = { started: { issuer: string; url: string } } | { failed: string } | { closed: true };

/** The thread's entry: registers tsx (workers do not inherit the loader), then runs thread-entry.ts. */
const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(
  new URL('./thread-entry.ts', import.meta.url).href,
)}); })`;

/** Starts the identity provider on a worker thread; resolves once it listens, as `startIdp` does. */
export function startIdpThread(
  options: IdpOptions,
  log: (line: string) => void = () => {},
): Promise<RunningIdp> {
  const worker = new Worker(bootstrap, { eval: true, workerData: options });
  let closed: (() => void) | undefined;
  let exited = false;
  return new Promise<RunningIdp>((resolve, reject) => {
    let running = false;
    worker.on('message', (message: FromThread) => {
      if ('started' in message) {
        running = true;
        resolve({
          ...message.started,
          // A thread that already ended (it failed, and said so) has nothing left to close.
          close: () =>
            exited
              ? Promise.resolve()
              : new Promise<void>((resolveClose) => {
                  closed = resolveClose;
                  worker.postMessage('close');
                }).then(() => worker.terminate().then(() => undefined)),
        });
      } else if ('failed' in message) {
        void worker.terminate();
        reject(new Error(message.failed));
      } else closed?.();
    });
    worker.on('error', (error) => {
      if (!running) reject(error);
      else log(`identity provider thread failed: ${error.stack ?? error.message}`);
    });
    worker.on('exit', (code) => {
      exited = true;
      if (!running) reject(new Error(`The identity provider's thread exited (${code}) before it listened`));
      closed?.();
    });
  });
}
