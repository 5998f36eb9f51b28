import type { Server } from 'node:http';
import sesServer from 'aws-ses-v2-local';

// aws-ses-v2-local: the SES v2 API plus a mailbox viewer at `/` and the raw store at `/store`.

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
