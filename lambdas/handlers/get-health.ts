import type { HealthResponse } from '#contracts/health.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

export const handler = httpHandler({ route: 'GetHealth' }, async () => ({
  status: 200,
  body: { status: 'ok' } satisfies HealthResponse,
}));
