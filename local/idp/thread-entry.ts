import { parentPort, workerData } from 'node:worker_threads';
import { type IdpOptions, startIdp } from './index.ts';

// Runs on the identity provider's thread (thread.ts): starts it, reports its URLs, closes it on
// request. A failure to start is reported with its message, as startIdp would have thrown it.

const parent = parentPort;
if (!parent) throw new Error('thread-entry.ts runs on a worker thread (local/idp/thread.ts)');
try {
  const idp = await startIdp(workerData as IdpOptions);
  parent.on('message', (message: unknown) => {
    if (message !== 'close') return;
    void idp.close().finally(() => {
      parent.postMessage({ closed: true });
      parent.close();
    });
  });
  parent.postMessage({ started: { issuer: idp.issuer, url: idp.url } });
} catch (error) {
  parent.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
