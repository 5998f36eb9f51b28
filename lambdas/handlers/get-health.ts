import { getHealthRoute, type HealthResponse } from '#contracts/health.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';

export const handler = httpHandler({ route: getHealthRoute }, async () => ({
  status: 200,
  body: { status: 'ok' } satisfies HealthResponse,
}));
