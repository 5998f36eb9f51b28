import type { Server } from 'node:http';
import sesModule from 'aws-ses-v2-local';

// aws-ses-v2-local: the SES v2 API plus a mailbox viewer at `/` and the raw store at `/store`.

// A CommonJS module with `exports.default`: Node's ESM loader and bundlers disagree on which
// object the default import is, so take whichever is the function.
const sesServer = ((sesModule as unknown as { default?: typeof sesModule }).default ??
  sesModule) as typeof sesModule;

export interface RunningSes {
  url: string;
  close(): Promise<void>;
}

export async function startSes(options: { port: number }): Promise<RunningSes> {
  const server: Server = await sesServer({ host: '127.0.0.1', port: options.port });
  return {
    url: `http://localhost:${options.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
