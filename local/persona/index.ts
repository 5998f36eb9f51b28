// Local Persona emulator: the inquiry API subset, the widget page the `persona` SDK opens through
// `customHost`, and signed webhooks with Persona's retry behaviour (docs/design.md section 8).
import { createServer } from 'node:http';
import { handleFaultControl } from '#local/faults.ts';
import { listen } from '#local/http.ts';
import { handleApi } from './api.ts';
import { PersonaEmulator } from './emulator.ts';
import { HttpError, sendError, sendHtml } from './http-util.ts';
import { indexHtml } from './index-page.ts';
import type { PersonaOptions, RunningPersona } from './types.ts';
import { handleWidget } from './widget.ts';

export type { PersonaOptions, RunningPersona, WebhookDelivery } from './types.ts';
export { signatureHeader } from './webhooks.ts';

export async function startPersona(options: PersonaOptions): Promise<RunningPersona> {
  const emulator = new PersonaEmulator(options);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handle = async () => {
      if (await handleFaultControl(req, res, url.pathname, { personaWebhooks: emulator.faults })) return;
      if (await handleApi(emulator, req, res, url)) return;
      if (await emulator.webhookDrops.handle(req, res, url)) return;
      if (await handleWidget(emulator, req, res, url)) return;
      if (url.pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
        sendHtml(res, 200, indexHtml(emulator));
        return;
      }
      if (url.pathname === '/health') {
        sendHtml(res, 200, 'ok');
        return;
      }
      sendError(res, 404, 'Not found', `No route for ${req.method} ${url.pathname}`);
    };
    handle().catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendError(res, error.status, error.title, error.details);
        return;
      }
      console.error('[persona] request failed', error);
      sendError(res, 500, 'Internal server error');
    });
  });
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port, host);
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${options.port}`,
    deliveries: () => emulator.webhooks.deliveries(),
    close: async () => {
      await emulator.webhooks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
